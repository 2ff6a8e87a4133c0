import { Effect, Schema } from "effect"
import { parseArgs } from "node:util"

/**
 * The `ecds` command tree: each command declares its arguments and options once, and the parser,
 * the help text and the usage errors are derived from that declaration, so every subcommand reads
 * and fails the same way.
 */

/** A command line the program cannot act on; the message names the argument and what it accepts. */
export class UsageError extends Schema.TaggedError<UsageError>()("UsageError", {
  message: Schema.String,
  /** The command whose `--help` explains the fix. */
  command: Schema.String
}) {}

/** A failure of the work itself (not of the command line), reported as one line. */
export class CommandFailed extends Schema.TaggedError<CommandFailed>()("CommandFailed", {
  message: Schema.String
}) {}

export interface OptionSpec {
  readonly description: string
  /** `flag` takes no value; `text`, `integer` and `choice` take one. */
  readonly type: "flag" | "text" | "integer" | "choice"
  readonly choices?: ReadonlyArray<string>
  /** The placeholder shown in usage text, e.g. `<dir>`. */
  readonly placeholder?: string
  readonly default?: string
}

export interface ArgumentSpec {
  readonly name: string
  readonly description: string
  readonly optional?: boolean
}

export interface Parsed {
  /** The tokens after the command's name, as given. */
  readonly argv: ReadonlyArray<string>
  readonly args: Readonly<Record<string, string | undefined>>
  readonly options: Readonly<Record<string, string | boolean | undefined>>
}

export interface Leaf {
  readonly _tag: "Leaf"
  readonly name: string
  readonly summary: string
  /** Paragraphs shown under the usage line. */
  readonly details?: string
  readonly args?: ReadonlyArray<ArgumentSpec>
  readonly options?: Readonly<Record<string, OptionSpec>>
  readonly run: (input: Parsed) => Effect.Effect<void, UsageError | CommandFailed>
}

export interface Group {
  readonly _tag: "Group"
  readonly name: string
  readonly summary: string
  readonly details?: string
  readonly commands: ReadonlyArray<Command>
}

export type Command = Leaf | Group

export const leaf = (spec: Omit<Leaf, "_tag">): Leaf => ({ _tag: "Leaf", ...spec })
export const group = (spec: Omit<Group, "_tag">): Group => ({ _tag: "Group", ...spec })

const optionUsage = (name: string, spec: OptionSpec) =>
  spec.type === "flag"
    ? `--${name}`
    : `--${name} ${spec.type === "choice" ? (spec.choices ?? []).join("|") : spec.placeholder ?? "<value>"}`

const argUsage = (arg: ArgumentSpec) => (arg.optional ? `[<${arg.name}>]` : `<${arg.name}>`)

const table = (rows: ReadonlyArray<readonly [string, string]>) => {
  const width = Math.min(34, Math.max(...rows.map(([left]) => left.length)) + 2)
  return rows.map(([left, right]) =>
    left.length + 2 > width ? `  ${left}\n  ${" ".repeat(width)}${right}` : `  ${left.padEnd(width)}${right}`
  ).join("\n")
}

/** The help text of a command; `path` is the command line that reaches it (`ecds keys create`). */
export const helpOf = (command: Command, path: string): string => {
  const lines = [`${path} — ${command.summary}`, ""]
  if (command._tag === "Group") {
    lines.push(`Usage: ${path} <command> [options]`, "")
    if (command.details) lines.push(command.details, "")
    lines.push("Commands:", table(command.commands.map((sub) => [sub.name, sub.summary])), "")
    lines.push(`Run \`${path} <command> --help\` for the options of each command.`)
    return lines.join("\n")
  }
  const options = Object.entries(command.options ?? {})
  const usage = [
    path,
    ...(command.args ?? []).map(argUsage),
    ...options.map(([name, spec]) => `[${optionUsage(name, spec)}]`)
  ]
  lines.push(`Usage: ${usage.join(" ")}`, "")
  if (command.details) lines.push(command.details, "")
  if (command.args !== undefined && command.args.length > 0) {
    lines.push("Arguments:", table(command.args.map((arg) => [`<${arg.name}>`, arg.description])), "")
  }
  lines.push(
    "Options:",
    table([
      ...options.map(([name, spec]): readonly [string, string] => [
        optionUsage(name, spec),
        spec.default === undefined ? spec.description : `${spec.description} (default: ${spec.default})`
      ]),
      ["-h, --help", "show this help"]
    ])
  )
  return lines.join("\n")
}

const isHelp = (arg: string) => arg === "--help" || arg === "-h"

const usageError = (path: string, message: string) => new UsageError({ message: `${path}: ${message}`, command: path })

const decodeLeaf = (command: Leaf, path: string, argv: ReadonlyArray<string>): Effect.Effect<Parsed, UsageError> =>
  Effect.suspend(() => {
    const specs = command.options ?? {}
    let parsed: ReturnType<typeof parseArgs>
    try {
      parsed = parseArgs({
        args: [...argv],
        allowPositionals: true,
        strict: true,
        options: Object.fromEntries(
          Object.entries(specs).map(([name, spec]) => [name, { type: spec.type === "flag" ? "boolean" : "string" }])
        )
      })
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error)
      const unknown = /Unknown option '([^']+)'/.exec(text)
      const known = Object.entries(specs).map(([name, spec]) => optionUsage(name, spec))
      return Effect.fail(usageError(
        path,
        unknown
          ? `unknown option ${unknown[1]}; ${known.length === 0 ? "it takes no options" : `valid: ${known.join(", ")}`}`
          : text.replace(/\. To specify a positional argument.*$/s, "").replace(/'/g, "")
      ))
    }
    const options: Record<string, string | boolean | undefined> = {}
    for (const [name, spec] of Object.entries(specs)) {
      const given = parsed.values[name]
      const value = Array.isArray(given) ? given.at(-1) : given ?? spec.default
      if (typeof value === "string" && spec.type === "choice" && !(spec.choices ?? []).includes(value)) {
        return Effect.fail(
          usageError(path, `--${name} must be one of ${(spec.choices ?? []).join(", ")} (got ${JSON.stringify(value)})`)
        )
      }
      if (typeof value === "string" && spec.type === "integer" && !/^-?\d+$/.test(value)) {
        return Effect.fail(usageError(path, `--${name} must be an integer (got ${JSON.stringify(value)})`))
      }
      options[name] = value
    }
    const specsOfArgs = command.args ?? []
    const positionals = parsed.positionals
    if (positionals.length > specsOfArgs.length) {
      const extra = positionals.slice(specsOfArgs.length).map((value) => JSON.stringify(value)).join(" ")
      return Effect.fail(
        usageError(
          path,
          `unexpected argument ${extra}; ${
            specsOfArgs.length === 0 ? "it takes none" : `it takes ${specsOfArgs.map(argUsage).join(" ")}`
          }`
        )
      )
    }
    const args: Record<string, string | undefined> = {}
    for (const [index, spec] of specsOfArgs.entries()) {
      const value = positionals[index]
      if (value === undefined && spec.optional !== true) {
        return Effect.fail(usageError(path, `missing <${spec.name}>: ${spec.description}`))
      }
      args[spec.name] = value
    }
    return Effect.succeed({ argv, args, options })
  })

/** What a command line asks for: a command's help, or a command to run with its parsed input. */
export type Resolved =
  | { readonly _tag: "Help"; readonly text: string }
  | { readonly _tag: "Run"; readonly command: Leaf; readonly input: Parsed }

/** Finds the command `argv` names, then parses its arguments; `--help` anywhere asks for help. */
export const resolve = (
  root: Command,
  argv: ReadonlyArray<string>,
  path = root.name
): Effect.Effect<Resolved, UsageError> => {
  if (root._tag === "Leaf") {
    return argv.some(isHelp)
      ? Effect.succeed({ _tag: "Help", text: helpOf(root, path) })
      : Effect.map(decodeLeaf(root, path, argv), (input) => ({ _tag: "Run", command: root, input }))
  }
  const [first, ...rest] = argv
  if (first === undefined || isHelp(first)) {
    return first === undefined
      ? Effect.fail(usageError(path, `missing <command>; one of ${root.commands.map((c) => c.name).join(", ")}`))
      : Effect.succeed({ _tag: "Help", text: helpOf(root, path) })
  }
  const next = root.commands.find((command) => command.name === first)
  if (next === undefined) {
    return Effect.fail(
      usageError(
        path,
        `unknown command ${JSON.stringify(first)}; one of ${root.commands.map((c) => c.name).join(", ")}`
      )
    )
  }
  return resolve(next, rest, `${path} ${next.name}`)
}

/** Option accessors for `run`: the declaration already checked presence, type and choices. */
export const text = (input: Parsed, name: string): string | undefined => {
  const value = input.options[name]
  return typeof value === "string" ? value : undefined
}

export const integer = (input: Parsed, name: string): number | undefined => {
  const value = text(input, name)
  return value === undefined ? undefined : Number(value)
}

export const flag = (input: Parsed, name: string): boolean => input.options[name] === true

export const arg = (input: Parsed, name: string): string => input.args[name] ?? ""

/** A command's heavy modules, imported when it runs: `--help` and the other commands start quickly. */
export const load = <M>(modules: () => Promise<M>): Effect.Effect<M> => Effect.promise(modules)
