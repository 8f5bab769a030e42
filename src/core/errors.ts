/** A submission that cannot be graded; the message says why, in words an agent author can act on. */
export class InvalidSubmissionError extends Error {
  override name = "InvalidSubmissionError";
}

/**
 * A problem with the user's setup or input (missing competition, missing answers,
 * bad flag): the CLI prints the message and exits with status 2.
 */
export class UserError extends Error {
  override name = "UserError";
}

/** A CSV file that cannot be parsed; names the file, the line and what was expected. */
export class CsvParseError extends Error {
  override name = "CsvParseError";
  constructor(
    message: string,
    readonly file: string | undefined,
    readonly line: number | undefined,
  ) {
    super(message);
  }
}
