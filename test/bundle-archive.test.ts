import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { afterAll } from "vitest"
import { maxEntries, readArchive, sha256Hex, writeArchive } from "../src/services/bundle/Archive.ts"

/**
 * The bundle file format itself: a gzip-compressed tar file that the system's `tar` reads and
 * writes too, read back within caps on entry size, total size and entry count.
 */
const work = mkdtempSync(join(tmpdir(), "bundle-archive-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const text = (value: string) => new TextEncoder().encode(value)
const tar = (...args: Array<string>) => execFileSync("tar", args, { cwd: work, encoding: "utf8" })

describe("bundle archives", () => {
  it("round-trips entries in order, and the system's tar lists and extracts them byte for byte", async () => {
    const big = new Uint8Array(300_000).map((_, i) => (i * 7919) % 251)
    const entries: Array<readonly [string, Uint8Array]> = [
      ["manifest.json", text("{\"format\":\"test\"}")],
      ["ecfr/title-15/part-774.json", big],
      ["empty.txt", new Uint8Array(0)],
      [`deep/${"long-name-".repeat(12)}.json`, text("ü – 中文")]
    ]
    const file = join(work, "round-trip.tar.gz")
    await writeArchive(file, entries)
    const read = await readArchive(file)
    expect([...read.keys()]).toEqual(entries.map(([name]) => name))
    for (const [name, bytes] of entries) expect(sha256Hex(read.get(name)!)).toBe(sha256Hex(bytes))
    expect(tar("-tzf", file).trim().split("\n")).toEqual(entries.map(([name]) => name))
    mkdirSync(join(work, "out"))
    tar("-xzf", file, "-C", join(work, "out"))
    expect(sha256Hex(readFileSync(join(work, "out", "ecfr/title-15/part-774.json")))).toBe(sha256Hex(big))
  })

  it("reads the files of an archive the system's tar wrote, and skips its directories", async () => {
    mkdirSync(join(work, "made/parts"), { recursive: true })
    writeFileSync(join(work, "made/manifest.json"), "{}")
    writeFileSync(join(work, "made/parts/one.json"), "[1]")
    tar("-czf", "made.tar.gz", "-C", "made", ".")
    const read = await readArchive(join(work, "made.tar.gz"))
    expect(new Map([...read].map(([name, bytes]) => [name, new TextDecoder().decode(bytes)]))).toEqual(
      new Map([["./manifest.json", "{}"], ["./parts/one.json", "[1]"]])
    )
  })

  it("refuses an entry, a total or a count over its cap, and a file that is not a gzip-compressed tar", async () => {
    const file = join(work, "caps.tar.gz")
    await writeArchive(file, [["a", new Uint8Array(4096)], ["b", new Uint8Array(4096)], ["c", new Uint8Array(10)]])
    const caps = { entryBytes: 8192, totalBytes: 16384, entries: maxEntries }
    await expect(readArchive(file, caps)).resolves.toHaveProperty("size", 3)
    await expect(readArchive(file, { ...caps, entryBytes: 4095 })).rejects.toThrow("the archive exceeds 4095 bytes")
    await expect(readArchive(file, { ...caps, totalBytes: 8191 })).rejects.toThrow("the archive exceeds 8191 bytes")
    await expect(readArchive(file, { ...caps, entries: 2 })).rejects.toThrow("the archive holds more than 2 files")

    writeFileSync(join(work, "plain.gz"), gzipSync(text("not a tar file, only text ".repeat(40))))
    await expect(readArchive(join(work, "plain.gz"))).rejects.toThrow(/invalid tar/i)
    const truncated = readFileSync(file).subarray(0, 60)
    writeFileSync(join(work, "truncated.tar.gz"), truncated)
    await expect(readArchive(join(work, "truncated.tar.gz"))).rejects.toThrow(/unexpected end of file/)
    await expect(readArchive(join(work, "missing.tar.gz"))).rejects.toThrow(/ENOENT/)
  })

  it("leaves no file behind when the target folder does not exist", async () => {
    await expect(writeArchive(join(work, "no-such-folder", "x.tar.gz"), [["a", text("a")]])).rejects.toThrow(/ENOENT/)
  })
})
