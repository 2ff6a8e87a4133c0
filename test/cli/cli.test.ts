import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Console, Effect, Either } from "effect"
import { spawnSync } from "node:child_process"
import { createServer } from "node:net"
import { type Command, UsageError } from "../../src/cli/Command.ts"
import { program, root } from "../../src/cli/Program.ts"
import * as AppConfig from "../../src/services/AppConfig.ts"
import { offlineEnv, repoRoot } from "../support/CliEnv.ts"

/** Runs the command line in process, capturing what it prints and its exit status. */
const run = (argv: ReadonlyArray<string>) => {
  const out: Array<string> = []
  const err: Array<string> = []
  const console: Console.Console = {
    ...globalThis.console,
    [Console.TypeId]: Console.TypeId,
    log: (...args: Array<unknown>) => Effect.sync(() => void out.push(args.join(" "))),
    error: (...args: Array<unknown>) => Effect.sync(() => void err.push(args.join(" ")))
  } as unknown as Console.Console
  return Effect.map(Effect.withConsole(program(argv), console), (status) => ({
    status,
    stdout: out.join("\n"),
    stderr: err.join("\n")
  }))
}

/** Every command line of the tree, as the words that reach it. */
const paths = (command: Command, prefix: ReadonlyArray<string> = []): ReadonlyArray<ReadonlyArray<string>> =>
  command._tag === "Leaf"
    ? [prefix]
    : [prefix, ...command.commands.flatMap((sub) => paths(sub, [...prefix, sub.name]))]

describe("ecds command line", () => {
  it.effect("every command's --help exits 0 with its usage line", () =>
    Effect.gen(function*() {
      const lines = paths(root)
      expect(lines.map((line) => line.join(" "))).toEqual(expect.arrayContaining([
        "serve",
        "mcp",
        "sync",
        "keys create",
        "accounts users add",
        "accounts clients revoke",
        "enforcement import",
        "workspace export",
        "workspace import",
        "migrate",
        "render-backend"
      ]))
      for (const line of lines) {
        for (const flag of ["--help", "-h"]) {
          const result = yield* run([...line, flag])
          expect(result.status, line.join(" ")).toBe(0)
          expect(result.stdout).toContain(`Usage: ${["ecds", ...line].join(" ")}`)
          expect(result.stderr).toBe("")
        }
      }
    }))

  it.effect("usage errors exit 2 and name the argument and its valid values", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
        [
          ["launch"],
          "ecds: unknown command \"launch\"; one of serve, mcp, sync, keys, accounts, enforcement, workspace, migrate, " +
          "render-backend"
        ],
        [["keys"], "ecds keys: missing <command>; one of create, list, deactivate, activate, credit, usage"],
        [["keys", "create", "--credits", "lots"], "ecds keys create: --credits must be an integer (got \"lots\")"],
        [["keys", "create", "--colour", "red"], "ecds keys create: unknown option --colour; valid: --label <text>"],
        [["keys", "credit", "abc123"], "ecds keys credit: missing <amount>: whole credits; negative removes"],
        [
          ["accounts", "users", "add", "ada@example.com", "--tier", "gold"],
          "--tier must be one of free, paid (got \"gold\")"
        ],
        [["accounts", "users", "add", "bad-email"], "<email> must be an e-mail address such as ada@example.com"],
        [["sync", "--parts", "740,999"], "not supported: 999"],
        [["enforcement", "import"], "ecds enforcement import: missing <dir>"],
        [["serve", "extra"], "ecds serve: unexpected argument \"extra\"; it takes none"]
      ]
      for (const [argv, message] of cases) {
        const result = yield* run(argv)
        expect(result.status, argv.join(" ")).toBe(2)
        expect(result.stderr).toContain(message)
        expect(result.stderr).toMatch(/Run `ecds[^`]*--help` for usage\.$/)
      }
    }))

  it("names every invalid variable with its value and what to set, hiding secrets", () => {
    const env = { LOG_LEVEL: "verbose", PORT: "80800", ECFR_BASE_URL: "ftp://mirror", PDF_LINK_TTL_SECONDS: "0" }
    const result = Effect.runSync(
      Effect.either(
        AppConfig.read.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
      )
    )
    expect(Either.isLeft(result)).toBe(true)
    const lines = Either.isLeft(result) ? AppConfig.describeError(result.left, env) : []
    expect(lines).toEqual(expect.arrayContaining([
      "PORT=\"80800\": must be a TCP port from 0 to 65535 (0 picks a free one) (unset: 8787)",
      "LOG_LEVEL=\"verbose\": must be one of all, trace, debug, info, warn, warning, error, fatal, none (unset: info)",
      "ECFR_BASE_URL=\"ftp://mirror\": must be an absolute http(s) URL such as https://host.example",
      "PDF_LINK_TTL_SECONDS=\"0\": must be seconds from 1 to 604800 (7 days) (unset: 3600)"
    ]))
    expect(lines).toHaveLength(4)
    const secret = AppConfig.describeError(
      { _op: "InvalidData", path: ["DATA_GOV_API_KEY"], message: "is not accepted" } as never,
      { DATA_GOV_API_KEY: "abc-secret" }
    )
    expect(secret).toEqual(["DATA_GOV_API_KEY=(hidden): is not accepted"])
  })

  it("the enclave cannot start without its token issuer and keys", () => {
    const env = new Map([["DEPLOYMENT", "enclave"]])
    const result = Effect.runSync(
      Effect.either(AppConfig.read.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(env))))
    )
    const lines = Either.isLeft(result) ? AppConfig.describeError(result.left, {}) : []
    expect(lines).toEqual([
      "SERVICE_JWT_ISSUER is required when DEPLOYMENT=enclave: set it to the `iss` of your service JWTs",
      "SERVICE_JWT_JWKS_URL is required when DEPLOYMENT=enclave: set it to the issuer's JWKS URL, " +
      "or set SERVICE_JWT_PUBLIC_KEYS to its keys"
    ])
  })

  it("a usage error is a value the program reports, never a crash", () => {
    expect(new UsageError({ command: "ecds", message: "ecds: x" }).message).toBe("ecds: x")
  })
})

describe("ecds as a program (bin/ecds.mjs, as `npx . <command>` runs it)", () => {
  const ecds = (args: ReadonlyArray<string>, env: Record<string, string>) =>
    spawnSync(process.execPath, [`${repoRoot}/bin/ecds.mjs`, ...args], { env, encoding: "utf8", timeout: 120_000 })

  it("refuses to start with invalid configuration, naming each variable and value", () => {
    const run = ecds(["serve"], offlineEnv({ LOG_LEVEL: "verbose", RATE_LIMIT_PER_MINUTE: "-5" }))
    expect(run.status).toBe(1)
    expect(run.stdout).toBe("")
    expect(run.stderr).toContain("error: the configuration is invalid:")
    expect(run.stderr).toContain("LOG_LEVEL=\"verbose\": must be one of")
    expect(run.stderr).toContain("RATE_LIMIT_PER_MINUTE=\"-5\": must be an integer >= 0 (0 turns the limit off)")
  }, 120_000)

  it("names the port when it is in use", async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve))
    const port = (blocker.address() as { port: number }).port
    try {
      const run = ecds(["serve"], offlineEnv({ PORT: String(port), HOST: "127.0.0.1" }))
      expect(run.status).toBe(1)
      expect(run.stderr).toContain(
        `error: PORT=${port}: 127.0.0.1:${port} is already in use by another process; stop it or set PORT to a free port`
      )
    } finally {
      blocker.close()
    }
  }, 120_000)
})
