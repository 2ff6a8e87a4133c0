import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { hostname, tmpdir } from "node:os"
import { join } from "node:path"
import process from "node:process"
import { lockDirectory } from "../../src/services/store/DirectoryLock.ts"

const freshDirectory = () => join(mkdtempSync(join(tmpdir(), "ecds-lock-")), "db")

describe("embedded database lock", () => {
  it.effect("takes over a lock left by an earlier process that had this process's id", () =>
    Effect.gen(function*() {
      // a container's entry point is PID 1 in every run: killed outright, it leaves `1 <host>`
      // behind, and the next run of the same container is PID 1 again
      const directory = freshDirectory()
      writeFileSync(`${directory}.lock`, `${process.pid} ${hostname()}`)
      const taken = yield* Effect.exit(Effect.scoped(lockDirectory(directory)))
      expect(taken).toEqual(Exit.void)
      expect(existsSync(`${directory}.lock`)).toBe(false)
    }))

  it.effect("still refuses a second opener in the process that holds it", () =>
    Effect.gen(function*() {
      const directory = freshDirectory()
      yield* Effect.scoped(Effect.gen(function*() {
        yield* lockDirectory(directory)
        const second = yield* Effect.flip(Effect.scoped(lockDirectory(directory)))
        expect(second.message).toMatch(/is open in process \d+/)
        expect(readFileSync(`${directory}.lock`, "utf8")).toBe(`${process.pid} ${hostname()}`)
      }))
      // released: it can be taken again
      expect(yield* Effect.exit(Effect.scoped(lockDirectory(directory)))).toEqual(Exit.void)
    }))

  it.effect("refuses a lock another host holds (it cannot tell whether that process is gone)", () =>
    Effect.gen(function*() {
      const directory = freshDirectory()
      writeFileSync(`${directory}.lock`, `${process.pid} another-host.example`)
      const refused = yield* Effect.flip(Effect.scoped(lockDirectory(directory)))
      expect(refused.message).toContain(`is open in process ${process.pid} on another-host.example`)
    }))
})
