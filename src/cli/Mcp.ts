import { Effect, Layer, Stream } from "effect"
import { createInterface } from "node:readline"
import { hasUsableCredential } from "../domain/Principal.ts"
import { AppConfig } from "../services/AppConfig.ts"
import { CommandFailed, leaf, load } from "./Command.ts"
import { loadConfig } from "./Startup.ts"

/** The variable holding the credential a stdio connection acts with (an API key on the public deployment). */
export const ApiKeyVariable = "ECDS_API_KEY"

/** `baseUrl`: the public base URL problem types in error data are resolved against. */
const connect = (baseUrl: string) =>
  Effect.gen(function*() {
    const [{ McpCatalog }, { Auth }, { AccessPolicy }, Stdio] = yield* load(() =>
      Promise.all([
        import("../mcp/Catalog.ts"),
        import("../services/Auth.ts"),
        import("../services/AccessPolicy.ts"),
        import("../mcp/Stdio.ts")
      ])
    )
    const catalog = yield* McpCatalog
    const key = process.env[ApiKeyVariable]?.trim()
    const authorization = key === undefined || key === "" ? undefined : `Bearer ${key}`
    const principal = yield* (yield* Auth).authenticate(authorization).pipe(
      Effect.catchTag("StoreUnavailable", (error) =>
        new CommandFailed({ message: `${ApiKeyVariable}=(hidden) cannot be checked: ${error.detail}` }))
    )
    if (authorization !== undefined && !hasUsableCredential(principal)) {
      return yield* new CommandFailed({
        message: `${ApiKeyVariable}=(hidden): not a recognized, active credential of this deployment; ` +
          `unset it to run the free tools, or set a key from \`ecds keys create\``
      })
    }
    // the deployment's access policy for /mcp applies to the whole connection (the enclave needs a service JWT)
    const denied = (yield* AccessPolicy).check("/mcp", principal, authorization !== undefined)
    if (denied !== undefined) {
      return yield* new CommandFailed({
        message: `this deployment needs a credential for MCP: ${denied.error.detail} Set ${ApiKeyVariable} to it.`
      })
    }
    const input = createInterface({ input: process.stdin, crlfDelay: Infinity })
    yield* Stdio.serveLines(
      { catalog, challenge: undefined, baseUrl },
      principal,
      Stream.fromAsyncIterable(input, (error) =>
        new CommandFailed({ message: `stdin: ${String(error)}` })),
      (line) => Effect.sync(() => void process.stdout.write(`${line}\n`))
    )
  })

export const mcp = leaf({
  name: "mcp",
  summary: "serve MCP over stdio for a local agent (Claude Desktop, Claude Code, Cursor, VS Code …)",
  details: "The same tools and resources as POST /mcp, over stdin and stdout. The local user runs the free\n" +
    `tools without signing in; with ${ApiKeyVariable} set to an API key, the connection acts as that\n` +
    "key's account and sees the enterprise tools. Logs go to stderr. Configured like `serve`\n" +
    "(docs/configuration.md); the connection ends when stdin closes.",
  run: () =>
    Effect.gen(function*() {
      const config = yield* loadConfig
      const [{ DeploymentServices }, RuntimeInfo, Logging, Outbound, Store, Tracing] = yield* load(() =>
        Promise.all([
          import("../layers/Main.ts"),
          import("../services/RuntimeInfo.ts"),
          import("../layers/Logging.ts"),
          import("../layers/Outbound.ts"),
          import("../layers/Store.ts"),
          import("../layers/Tracing.ts")
        ])
      )
      const services = DeploymentServices.pipe(
        Layer.provide(Store.fromConfig),
        Layer.provide(RuntimeInfo.layer(`node ${process.version} (stdio)`)),
        Layer.provideMerge(Logging.layerStderr),
        Layer.provide(Layer.succeed(AppConfig, config)),
        Layer.provide(Outbound.layerNode),
        Layer.provide(Tracing.disabled)
      )
      yield* Effect.scoped(connect(config.publicBaseUrl).pipe(Effect.provide(services))).pipe(
        Effect.catchAll((error) =>
          Effect.fail(
            error instanceof CommandFailed
              ? error
              : new CommandFailed({ message: `cannot start: ${error.message === "" ? error._tag : error.message}` })
          )
        )
      )
    })
})
