import { runCli } from "./cli/Program.ts"

// `ecds <command>`: the operator's program (serve, mcp over stdio, sync, keys, accounts, enforcement …).
runCli(process.argv.slice(2))
