#!/usr/bin/env node
// Runs the typecheck and the lint at the same time (`npm test` runs this before vitest): each is one
// single-threaded process, so on a 2-core machine the pair takes about as long as the slower one.
// Each command's output is printed whole when it ends, so the two never interleave; the exit code
// is the first failure's.
import { spawn } from "node:child_process"

const commands = [
  ["typecheck", ["tsc", "--noEmit", "-p", "tsconfig.json"]],
  ["lint", ["eslint", "."]]
]

const run = ([name, [command, ...args]]) =>
  new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], shell: false })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.on("error", (error) => resolve({ name, code: 1, output: `${output}${error.message}\n`, started }))
    child.on("close", (code) => resolve({ name, code: code ?? 1, output, started }))
  }).then((result) => {
    const seconds = ((Date.now() - result.started) / 1000).toFixed(1)
    process.stdout.write(`> ${result.name}: ${result.code === 0 ? "ok" : `failed (${result.code})`} in ${seconds} s\n`)
    if (result.output !== "") process.stdout.write(result.output)
    return result.code
  })

const codes = await Promise.all(commands.map(run))
process.exit(codes.find((code) => code !== 0) ?? 0)
