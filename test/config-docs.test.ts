import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { repoRoot } from "./support/CliEnv.ts"

// The variable names are a contract (docs/configuration.md): every one the configuration reads is
// documented with the others and listed in .env.example, and nothing documented is left unread.
const read = (...path: Array<string>) => readFileSync(join(repoRoot, ...path), "utf8")

const variablesSource = read("src", "services", "config", "Variables.ts")
const readByConfig = new Set([...variablesSource.matchAll(/\(\s*"([A-Z][A-Z0-9_]+)"/g)].map((match) => match[1]!))
/** Read outside AppConfig: by `ecds mcp` itself, and by undici's proxy agent. */
const readElsewhere = ["ECDS_API_KEY", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"]

/** The names in the first column of a markdown table's rows. */
const tableNames = (markdown: string) =>
  new Set(
    markdown.split("\n").filter((line) => line.startsWith("| `")).flatMap((line) =>
      [...line.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!)
    )
  )

describe("configuration documentation", () => {
  const documented = new Set([...tableNames(read("docs", "configuration.md")), ...tableNames(read("docs", "store.md"))])
  const example = read(".env.example")

  it("finds the variables the configuration reads", () => {
    expect(readByConfig.size).toBeGreaterThan(50)
    expect(readByConfig).toContain("DATABASE_URL")
  })

  it("documents every variable the service reads, in the tables and in .env.example", () => {
    for (const name of [...readByConfig, ...readElsewhere]) {
      expect(documented, `${name} in docs/configuration.md or docs/store.md`).toContain(name)
      expect(example, `${name} in .env.example`).toMatch(new RegExp(`^# ${name}=`, "m"))
    }
  })

  it("documents no variable the service does not read", () => {
    const known = new Set([...readByConfig, ...readElsewhere])
    expect([...documented].filter((name) => !known.has(name))).toEqual([])
  })
})
