import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Exit } from "effect"
import { ServiceVersion } from "../domain/Service.ts"
import { accounts } from "./Accounts.ts"
import { group, resolve } from "./Command.ts"
import { enforcement } from "./Enforcement.ts"
import { keys } from "./Keys.ts"
import { mcp } from "./Mcp.ts"
import { migrate } from "./Migrate.ts"
import { renderBackend } from "./RenderBackend.ts"
import { serve } from "./Serve.ts"
import { sync } from "./Sync.ts"
import { workspaceCommand } from "./Workspace.ts"

export const root = group({
  name: "ecds",
  summary: `Export Compliance Data Service ${ServiceVersion}: EAR and ITAR data over REST and MCP`,
  details: "Configuration comes from environment variables (docs/configuration.md), the same for every command.",
  commands: [serve, mcp, sync, keys, accounts, enforcement, workspaceCommand, migrate, renderBackend]
})

/** Exit statuses: 0 done (or help shown), 1 the work failed, 2 the command line was wrong. */
export const program = (argv: ReadonlyArray<string>): Effect.Effect<number> =>
  resolve(root, argv).pipe(
    Effect.flatMap((resolved) =>
      resolved._tag === "Help" ? Console.log(resolved.text) : resolved.command.run(resolved.input)
    ),
    Effect.as(0),
    Effect.catchTags({
      UsageError: (error) =>
        Effect.as(Console.error(`${error.message}\nRun \`${error.command} --help\` for usage.`), 2),
      CommandFailed: (error) => Effect.as(Console.error(`error: ${error.message}`), 1)
    })
  )

/** Runs the command line and exits with its status; Ctrl-C stops a server gracefully. */
export const runCli = (argv: ReadonlyArray<string>) =>
  NodeRuntime.runMain(program(argv), {
    disablePrettyLogger: true,
    teardown: (exit, onExit) =>
      onExit(Exit.isSuccess(exit) && typeof exit.value === "number" ? exit.value : Exit.isInterrupted(exit) ? 130 : 1)
  })
