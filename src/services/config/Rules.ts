import { Config, ConfigError, Either } from "effect"

/*
 * The rules one environment variable is read by. Each failure names what is accepted and what
 * leaving the variable unset means, so a start-up error tells the operator what to write.
 */

const trimSlash = (url: string) => url.replace(/\/+$/, "")

/** A rule's failure; the variable's name is added to the path by the config it refines. */
export const invalid = (message: string) => Either.left(ConfigError.InvalidData([], message))

/** A rule over a variable's text; a failure message says what is accepted and what unset means. */
export const checked = <A>(name: string, rule: (text: string) => Either.Either<A, ConfigError.ConfigError>) =>
  Config.string(name).pipe(Config.mapOrFail(rule))

export const absoluteUrl = (name: string) =>
  checked(name, (text) => {
    const value = trimSlash(text.trim())
    return /^https?:\/\/[^/]/.test(value)
      ? Either.right(value)
      : invalid("must be an absolute http(s) URL such as https://host.example")
  })

export const url = (name: string, fallback: string) => absoluteUrl(name).pipe(Config.withDefault(fallback))

export const integerIn = (
  name: string,
  min: number,
  max: number,
  fallback: number,
  what = `an integer from ${min} to ${max}`
) =>
  Config.string(name).pipe(
    Config.mapOrFail((text) => {
      const value = Number(text.trim())
      return /^-?\d+$/.test(text.trim()) && value >= min && value <= max
        ? Either.right(value)
        : invalid(`must be ${what} (unset: ${fallback})`)
    }),
    Config.withDefault(fallback)
  )

export const oneOf = <const L extends ReadonlyArray<string>>(name: string, values: L, fallback: L[number]) =>
  Config.string(name).pipe(
    Config.mapOrFail((text) => {
      const value = text.trim().toLowerCase()
      return (values as ReadonlyArray<string>).includes(value)
        ? Either.right(value as L[number])
        : invalid(`must be one of ${values.join(", ")} (unset: ${fallback})`)
    }),
    Config.withDefault(fallback)
  )

export const optionalText = (name: string) => Config.option(Config.string(name))
