/**
 * Model strings and the providers they name:
 * `openai/<model>`, `openai-responses/<model>`, `anthropic/<model>`, `compat/<model>@<base-url>`.
 */
import { UserError } from "../core/errors.js";
import type { Provider } from "./types.js";
import { AnthropicProvider } from "./providers/anthropic.js";
import { OpenAIChatProvider } from "./providers/openai-chat.js";
import { OpenAIResponsesProvider } from "./providers/openai-responses.js";

/** The provider families a model string can name. */
export type ProviderKind = "openai" | "openai-responses" | "anthropic" | "compat";

/** A parsed model string; `baseUrl` only for compat (the others take theirs from the environment). */
export interface ModelSpec {
  kind: ProviderKind;
  model: string;
  baseUrl?: string;
}

const KINDS: readonly ProviderKind[] = ["openai", "openai-responses", "anthropic", "compat"];
const FORMS = "openai/<model>, openai-responses/<model>, anthropic/<model> or compat/<model>@<base-url>";

/** Split a model string into provider kind, model name and (for compat) base URL; a UserError says what is wrong. */
export function parseModel(spec: string): ModelSpec {
  const slash = spec.indexOf("/");
  if (slash < 0) throw new UserError(`Model "${spec}" has no provider prefix; write ${FORMS} (e.g. openai/gpt-4o).`);
  const prefix = spec.slice(0, slash);
  const rest = spec.slice(slash + 1).trim();
  if (!(KINDS as readonly string[]).includes(prefix)) {
    throw new UserError(`Model "${spec}" names an unknown provider "${prefix}"; the providers are ${KINDS.join(", ")}.`);
  }
  const kind = prefix as ProviderKind;
  if (kind !== "compat") {
    if (rest === "") throw new UserError(`Model "${spec}" has no model name after "${prefix}/".`);
    return { kind, model: rest };
  }
  // Model names may contain "@" (e.g. tags), base URLs normally do not, so split at the last one.
  const at = rest.lastIndexOf("@");
  if (at < 0) {
    throw new UserError(`Model "${spec}" needs a base URL: write compat/<model>@<base-url>, e.g. compat/llama3@http://127.0.0.1:8000/v1.`);
  }
  const model = rest.slice(0, at).trim();
  const baseUrl = rest.slice(at + 1).trim();
  if (model === "") throw new UserError(`Model "${spec}" has no model name before "@".`);
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UserError(`Model "${spec}" has an invalid base URL "${baseUrl}"; expected e.g. http://127.0.0.1:8000/v1.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UserError(`Model "${spec}" has base URL "${baseUrl}", which is not http(s).`);
  }
  return { kind, model, baseUrl: baseUrl.replace(/\/+$/, "") };
}

/** The Provider a model string names, with its key and base URL taken from `env`. */
export function createProvider(spec: string, env: NodeJS.ProcessEnv = process.env): Provider {
  const parsed = parseModel(spec);
  switch (parsed.kind) {
    case "openai":
      return new OpenAIChatProvider({
        kind: "openai",
        model: parsed.model,
        baseUrl: env.OPENAI_BASE_URL || "https://api.openai.com/v1",
        apiKey: requireKey(env, "OPENAI_API_KEY", spec),
      });
    case "openai-responses":
      return new OpenAIResponsesProvider({
        model: parsed.model,
        baseUrl: env.OPENAI_BASE_URL || "https://api.openai.com/v1",
        apiKey: requireKey(env, "OPENAI_API_KEY", spec),
      });
    case "anthropic":
      return new AnthropicProvider({
        model: parsed.model,
        baseUrl: env.ANTHROPIC_BASE_URL || "https://api.anthropic.com",
        apiKey: requireKey(env, "ANTHROPIC_API_KEY", spec),
      });
    case "compat":
      // Only a key meant for compatible servers is sent: another provider's key must not go to an arbitrary URL.
      return new OpenAIChatProvider({
        kind: "compat",
        model: parsed.model,
        baseUrl: parsed.baseUrl!,
        apiKey: env.MLEBENCH_COMPAT_API_KEY || undefined,
      });
  }
}

function requireKey(env: NodeJS.ProcessEnv, name: string, spec: string): string {
  const key = env[name]?.trim();
  if (!key) throw new UserError(`${name} is not set; model ${spec} needs it. Export ${name}=<your key> and try again.`);
  return key;
}
