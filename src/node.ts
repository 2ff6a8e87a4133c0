import { runCli } from "./cli/Program.ts"

// The Node entry: `ecds serve` (checks the configuration, then serves the configured deployment).
runCli(["serve"])
