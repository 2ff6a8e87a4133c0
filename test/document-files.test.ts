import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { createHash } from "node:crypto"
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as DocumentFiles from "../src/services/DocumentFiles.ts"

const pdf = (size: number) => ({ fileName: "DOC-1-v1.pdf", bytes: new Uint8Array(size).fill(37), warnings: 2 })

describe("document link store", () => {
  it.scoped("serves a document until its TTL passes, then forgets it", () =>
    Effect.gen(function*() {
      let now = 1_000_000
      const files = yield* DocumentFiles.make(DocumentFiles.memoryBlobs(), {
        ttlSeconds: 60,
        maxBytes: 10_000,
        now: () => now
      })
      const link = yield* files.put(pdf(100))
      expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(link.expiresAt.getTime()).toBe(now + 60_000)
      expect(link.sha256).toBe(createHash("sha256").update(pdf(100).bytes).digest("hex"))
      const stored = yield* files.get(link.token)
      expect(Option.getOrThrow(stored)).toMatchObject({ fileName: "DOC-1-v1.pdf", warnings: 2 })
      expect(Option.isNone(yield* files.get(`${link.token.slice(0, 42)}A`))).toBe(true)
      now += 60_000
      expect(Option.isNone(yield* files.get(link.token))).toBe(true)
    }))

  it.scoped("refuses documents beyond the byte cap until expired ones are swept", () =>
    Effect.gen(function*() {
      let now = 0
      const files = yield* DocumentFiles.make(DocumentFiles.memoryBlobs(), {
        ttlSeconds: 10,
        maxBytes: 250,
        now: () => now
      })
      const first = yield* files.put(pdf(200))
      const refused = yield* Effect.exit(files.put(pdf(100)))
      expect(Exit.isFailure(refused) && JSON.stringify(refused.cause)).toContain("DocumentStorageFull")
      expect(Option.isSome(yield* files.get(first.token))).toBe(true)
      now += 10_000
      const second = yield* files.put(pdf(100))
      expect(Option.isSome(yield* files.get(second.token))).toBe(true)
    }))

  it.scoped("names files by the token's hash, never the token, and finds them again after a restart", () =>
    Effect.gen(function*() {
      const directory = yield* Effect.promise(() => mkdtemp(join(tmpdir(), "document-files-")))
      const options = { ttlSeconds: 3600, maxBytes: 1_000_000 }
      const files = yield* DocumentFiles.make(DocumentFiles.fileBlobs(directory), options)
      const link = yield* files.put(pdf(300))
      const hash = createHash("sha256").update(link.token).digest("hex")
      const names = yield* Effect.promise(() => readdir(directory))
      expect(names.sort()).toEqual([`${hash}.json`, `${hash}.pdf`])
      const meta = yield* Effect.promise(() => readFile(join(directory, `${hash}.json`), "utf8"))
      expect(meta).not.toContain(link.token)

      const corrupt = "0".repeat(64)
      const halfWritten = "1".repeat(64)
      yield* Effect.promise(() => writeFile(join(directory, `${corrupt}.json`), "{not json"))
      yield* Effect.promise(() => writeFile(join(directory, `${corrupt}.pdf`), "%PDF-"))
      yield* Effect.promise(() => writeFile(join(directory, `${halfWritten}.pdf`), "%PDF-"))
      const restarted = yield* DocumentFiles.make(DocumentFiles.fileBlobs(directory), options)
      const stored = Option.getOrThrow(yield* restarted.get(link.token))
      expect(stored.bytes).toEqual(pdf(300).bytes)
      expect((yield* Effect.promise(() => readdir(directory))).sort()).toEqual([`${hash}.json`, `${hash}.pdf`])
    }))
})
