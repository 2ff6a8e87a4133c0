#!/usr/bin/env node
// The `ecds` program: the TypeScript sources run through tsx, so a clone works as is (`npx . mcp`).
import { register } from "tsx/esm/api"

register()
await import("../src/cli.ts")
