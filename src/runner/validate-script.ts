/**
 * The /home/validate_submission.sh helper placed in every sandbox. The sandbox has no network,
 * so instead of upstream's http://localhost:5000 it talks to the validation server's Unix
 * socket (port 5000 also works where init.mjs forwards it).
 */

/** Socket file name of the validation server under /run/mlebench. */
export const VALIDATE_SOCKET_NAME = "validate.sock";
/** Loopback port forwarded to the validation server, as in upstream MLE-bench. */
export const VALIDATE_PORT = 5000;

const SOCKET_PATH = `/run/mlebench/${VALIDATE_SOCKET_NAME}`;

// Used only where curl is absent; the multipart body is built by hand because the
// standard library has no encoder for it, and http.client needs a Unix-socket connect().
// The filename sent is fixed: the server ignores it anyway.
const PYTHON_CLIENT = `import http.client, socket, sys, uuid
path, sock_path = sys.argv[1], sys.argv[2]
class UnixConnection(http.client.HTTPConnection):
    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(sock_path)
with open(path, "rb") as f:
    data = f.read()
boundary = uuid.uuid4().hex
body = (("--%s\\r\\nContent-Disposition: form-data; name=\\"file\\"; filename=\\"submission.csv\\"\\r\\n"
         "Content-Type: text/csv\\r\\n\\r\\n") % boundary).encode() + data + ("\\r\\n--%s--\\r\\n" % boundary).encode()
try:
    conn = UnixConnection("localhost", timeout=3600)
    conn.request("POST", "/validate", body, {"Content-Type": "multipart/form-data; boundary=" + boundary})
    sys.stdout.write(conn.getresponse().read().decode("utf-8", "replace"))
except OSError as e:
    sys.stderr.write("Could not reach the validation server at %s: %s\\n" % (sock_path, e))
    sys.exit(1)
`;

/** The text of /home/validate_submission.sh (bash), talking to the socket at `socketPath`. */
export function validateScript(socketPath: string = SOCKET_PATH): string {
  const quoted = `'${socketPath.replace(/'/g, `'\\''`)}'`;
  return `#!/bin/bash
# Checks that a submission file can be graded, without revealing any score.
# Usage: validate_submission.sh /home/submission/submission.csv
SOCKET=${quoted}

if [ $# -lt 1 ] || [ -z "$1" ]; then
  echo "Usage: $0 <submission_file>"
  echo "Submission file should be a CSV file. Example: $0 /home/submission/submission.csv"
  exit 1
fi
if [ ! -f "$1" ]; then
  echo "File $1 does not exist."
  exit 1
fi

if command -v curl >/dev/null 2>&1; then
  curl -s --unix-socket "$SOCKET" -X POST -F "file=@$1" http://localhost/validate
  status=$?
  if [ $status -ne 0 ]; then
    echo "Could not reach the validation server at $SOCKET (curl exit status $status)." >&2
  fi
else
  /usr/bin/python3 - "$1" "$SOCKET" <<'PY'
${PYTHON_CLIENT}PY
  status=$?
fi
echo
exit $status
`;
}
