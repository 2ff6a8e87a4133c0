import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { offlineEnv, runCli } from "../support/CliEnv.ts"
import { note, product, screening, transaction } from "../support/WorkspaceRecords.ts"

const recordLines = [
  { kind: "transaction", record: transaction },
  { kind: "product", record: product },
  { kind: "note", record: note },
  { kind: "screening", record: screening }
].map((line) => JSON.stringify(line))

describe("ecds workspace export|import", () => {
  it("imports a JSON Lines file into the embedded store and exports the same records", async () => {
    const env = offlineEnv()
    const work = mkdtempSync(join(tmpdir(), "ecds-workspace-"))
    const file = join(work, "in.jsonl")
    writeFileSync(file, `${recordLines.join("\n")}\n`)

    // logs (here: the first start's migrations) go to stderr, never into an export on stdout
    const imported = await runCli(["workspace", "import", "key:abc123", file], { ...env, LOG_LEVEL: "info" })
    expect(imported.stderr).toContain("database migrated")
    expect(imported.status).toBe(0)
    expect(imported.stdout.trim()).toBe("imported 1 transactions, 1 products, 1 notes, 1 screenings")

    const out = join(work, "out.jsonl")
    const exported = await runCli(["workspace", "export", "key:abc123", "--out", out], env)
    expect(exported.status).toBe(0)
    expect(exported.stderr).toContain(`wrote 4 records to ${out}`)
    const lines = readFileSync(out, "utf8").trim().split("\n")
    expect(JSON.parse(lines[0]!)).toMatchObject({ kind: "workspace", workspace: "key:abc123" })
    expect(lines.slice(1)).toEqual(recordLines)

    const other = await runCli(["workspace", "export", "key:someone-else"], { ...env, LOG_LEVEL: "info" })
    expect(other.status).toBe(0)
    expect(other.stdout.trim().split("\n")).toHaveLength(1)
  }, 180_000)

  it("refuses an invalid file with the line and the field, writing nothing", async () => {
    const env = offlineEnv()
    const file = join(mkdtempSync(join(tmpdir(), "ecds-workspace-")), "bad.jsonl")
    writeFileSync(file, `${recordLines[0]}\n{"kind":"note","record":{"id":"n","text":"x"}}\n`)
    const result = await runCli(["workspace", "import", "key:abc123", file], env)
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(/^error: line 2 is not a workspace record: `record\.\w+` is required/)
    const exported = await runCli(["workspace", "export", "key:abc123"], env)
    expect(exported.stdout.trim().split("\n")).toHaveLength(1)
  }, 180_000)
})
