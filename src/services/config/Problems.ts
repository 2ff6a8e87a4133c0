import { ConfigError } from "effect"

/** Variables whose values are never printed, even in a start-up error. */
const secretVariables = new Set([
  "DATA_GOV_API_KEY",
  "SKILLS_GITHUB_TOKEN",
  "SERVICE_JWT_PUBLIC_KEYS",
  "DATABASE_URL",
  "REDIS_URL",
  "ECDS_API_KEY",
  "RENDER_BACKEND_SECRET"
])

/**
 * One line per configuration problem: the variable, its value (hidden for secrets) and what to set,
 * e.g. `LOG_LEVEL="verbose": must be one of … (unset: info)`.
 */
export const describeError = (
  error: ConfigError.ConfigError,
  env: Readonly<Record<string, string | undefined>>
): ReadonlyArray<string> =>
  ConfigError.reduceWithContext(error, undefined, {
    andCase: (_, left: ReadonlyArray<string>, right: ReadonlyArray<string>) => [...left, ...right],
    orCase: (_, left: ReadonlyArray<string>, right: ReadonlyArray<string>) => [...left, ...right],
    invalidDataCase: (_, path, message) => {
      const name = path.join("_")
      const value = env[name]
      const shown = value === undefined ? "" : secretVariables.has(name) ? "=(hidden)" : `=${JSON.stringify(value)}`
      return [`${name}${shown}: ${message}`]
    },
    missingDataCase: (_, path, message) => [`${path.join("_")} ${message}`],
    sourceUnavailableCase: (_, path, message) => [`${path.join("_")}: ${message}`],
    unsupportedCase: (_, path, message) => [`${path.join("_")}: ${message}`]
  })
