import { Effect } from "effect"
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { dirname } from "node:path"

/**
 * A small JSON document kept in one file: every read sees the file, every change is a
 * read-modify-write under an in-process semaphore and a lock file (so the keys CLI and a running
 * server can share the store), written to a temporary file and renamed into place, so a reader
 * never sees half a document. Services keep this behind their own interface; a database layer
 * replaces them, not this.
 */
export interface JsonStore<A> {
  readonly read: Effect.Effect<A>
  readonly modify: <B>(f: (current: A) => readonly [B, A]) => Effect.Effect<B>
}

const lockStaleMillis = 10_000
const lockAttempts = 200

const acquireLock = async (path: string) => {
  for (let attempt = 0; attempt < lockAttempts; attempt++) {
    try {
      const handle = await open(path, "wx")
      await handle.writeFile(String(process.pid))
      await handle.close()
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      const info = await stat(path).catch(() => undefined)
      if (info && Date.now() - info.mtimeMs > lockStaleMillis) await rm(path, { force: true })
      else await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
  throw new Error(`store lock ${path} is held`)
}

export const fileStore = <A>(path: string, empty: () => A): Effect.Effect<JsonStore<A>> =>
  Effect.map(Effect.makeSemaphore(1), (semaphore) => {
    const load = async (): Promise<A> => {
      try {
        return JSON.parse(await readFile(path, "utf8")) as A
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return empty()
        throw error
      }
    }
    const lockPath = `${path}.lock`
    return {
      // an unreadable store is an operator problem, not the caller's: it surfaces as a defect (500)
      read: Effect.orDie(Effect.tryPromise(load)),
      modify: (f) =>
        semaphore.withPermits(1)(Effect.orDie(Effect.tryPromise(async () => {
          await mkdir(dirname(path), { recursive: true })
          await acquireLock(lockPath)
          try {
            const [result, next] = f(await load())
            const temporary = `${path}.${process.pid}.${Date.now()}.tmp`
            await writeFile(temporary, JSON.stringify(next, null, 2), { mode: 0o600 })
            await rename(temporary, path)
            return result
          } finally {
            await rm(lockPath, { force: true })
          }
        })))
    }
  })

/** The same contract in memory, for tests. */
export const memoryStore = <A>(initial: A): Effect.Effect<JsonStore<A>> =>
  Effect.map(Effect.makeSemaphore(1), (semaphore) => {
    let value = initial
    return {
      read: Effect.sync(() => value),
      modify: (f) =>
        semaphore.withPermits(1)(Effect.sync(() => {
          const [result, next] = f(value)
          value = next
          return result
        }))
    }
  })
