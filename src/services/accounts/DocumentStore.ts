import { Data, Effect, Schedule, Schema, type Scope } from "effect"
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { dirname } from "node:path"

export class StoreError extends Data.TaggedError("StoreError")<{ readonly reason: string }> {}

export interface DocumentStore<A> {
  /**
   * The document as last loaded (the file store refreshes it in the background; the SQL store asks
   * the row's version). `StoreError` when the store cannot be read.
   */
  readonly current: Effect.Effect<A, StoreError>
  /**
   * A read-modify-write under the file lock, starting from the file's latest content, so writers in
   * other processes (the operator CLI next to a running server) are never lost.
   */
  readonly update: <B>(change: (document: A) => readonly [B, A]) => Effect.Effect<B, StoreError>
}

interface Options<A, I> {
  readonly path: string
  readonly schema: Schema.Schema<A, I>
  readonly empty: A
  /** How often the background fiber checks the file for changes by other processes. */
  readonly refreshMillis?: number
}

const lockStaleMillis = 10_000
const lockWaitMillis = 5_000

const errorCode = (error: unknown) => (error as { code?: string } | undefined)?.code

/**
 * What identifies one write of the file cheaply: every write renames a new file into place, so the
 * inode changes along with time and size (timestamps alone are coarser than a burst of writes).
 */
const fileVersion = async (path: string) => {
  try {
    const info = await stat(path)
    return `${info.ino}:${info.mtimeMs}:${info.size}`
  } catch (error) {
    if (errorCode(error) === "ENOENT") return "absent"
    throw error
  }
}

/** An exclusive lock shared by processes: a directory, created atomically, broken when stale. */
const acquireLock = async (lockPath: string) => {
  const deadline = Date.now() + lockWaitMillis
  for (;;) {
    try {
      await mkdir(lockPath, { mode: 0o700 })
      return
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error
      const age = await stat(lockPath).then((info) => Date.now() - info.mtimeMs, () => 0)
      if (age > lockStaleMillis) await rm(lockPath, { recursive: true, force: true })
      else if (Date.now() > deadline) throw new Error("the store is locked by another process")
      else await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20))
    }
  }
}

/**
 * One JSON document on disk (the embedded store under DATA_DIR), validated by its schema on every
 * load. Writes go to a temporary file renamed over the old one, so readers never see a torn file;
 * a file that does not decode is an error, never silently replaced. Nothing is created until the
 * first write, so a read-only deployment starts with the empty document.
 */
export const make = <A, I>(options: Options<A, I>): Effect.Effect<DocumentStore<A>, StoreError, Scope.Scope> =>
  Effect.gen(function*() {
    const { path, schema } = options
    const decode = Schema.decodeUnknown(Schema.parseJson(schema))
    const encode = Schema.encode(Schema.parseJson(schema, { space: 1 }))
    const fail = (what: string) => (error: unknown) =>
      new StoreError({ reason: `${what} ${path}: ${error instanceof Error ? error.message : String(error)}` })

    const load = Effect.gen(function*() {
      const version = yield* Effect.tryPromise({ try: () => fileVersion(path), catch: fail("cannot read") })
      if (version === "absent") return { document: options.empty, version }
      const text = yield* Effect.tryPromise({ try: () => readFile(path, "utf8"), catch: fail("cannot read") })
      const document = yield* decode(text).pipe(Effect.mapError(fail("invalid content in")))
      return { document, version }
    })

    let state = yield* load

    const refresh = Effect.gen(function*() {
      const version = yield* Effect.tryPromise({ try: () => fileVersion(path), catch: fail("cannot read") })
      if (version !== state.version) state = yield* load
    }).pipe(Effect.catchAll((error) => Effect.logWarning("account store refresh failed", error.reason)))
    yield* refresh.pipe(
      Effect.repeat(Schedule.spaced(options.refreshMillis ?? 1000)),
      Effect.forkScoped
    )

    const lockPath = `${path}.lock`
    // writers in this process queue here; the file lock orders them with other processes
    const writers = yield* Effect.makeSemaphore(1)
    const update = <B>(change: (document: A) => readonly [B, A]) =>
      writers.withPermits(1)(Effect.acquireUseRelease(
        Effect.tryPromise({
          try: async () => {
            await mkdir(dirname(path), { recursive: true, mode: 0o700 })
            await acquireLock(lockPath)
          },
          catch: fail("cannot lock")
        }),
        () =>
          Effect.gen(function*() {
            const latest = yield* load
            const [result, next] = change(latest.document)
            if (next === latest.document) {
              state = latest
              return result
            }
            const text = yield* encode(next).pipe(Effect.mapError(fail("cannot encode")))
            const temporary = `${path}.${process.pid}.${Date.now()}.tmp`
            yield* Effect.tryPromise({
              try: async () => {
                await writeFile(temporary, text, { mode: 0o600 })
                await rename(temporary, path)
              },
              catch: fail("cannot write")
            })
            const version = yield* Effect.tryPromise(() => fileVersion(path)).pipe(Effect.orElseSucceed(() => ""))
            state = { document: next, version }
            return result
          }),
        () => Effect.promise(() => rm(lockPath, { recursive: true, force: true }))
      ))

    return { current: Effect.sync(() => state.document), update }
  })
