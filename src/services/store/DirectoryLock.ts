import { SqlError } from "@effect/sql/SqlError"
import { Effect, type Scope } from "effect"
import { mkdir, open, readFile, rm } from "node:fs/promises"
import { hostname } from "node:os"
import { dirname } from "node:path"
import process from "node:process"

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** The locks this process holds now: a lock naming this process's id and not held here is stale. */
const held = new Set<string>()

const claim = async (path: string, owner: string): Promise<string | undefined> => {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, "wx", 0o600)
      await handle.writeFile(owner)
      await handle.close()
      held.add(path)
      return undefined
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      const [pid, host] = (await readFile(path, "utf8").catch(() => "")).split(" ")
      const holder = Number(pid)
      // a lock left by a process that is gone (crash, kill -9) is stale; so is one naming this
      // process's id that this process does not hold: a container's entry point is PID 1 in every run
      const gone = holder === process.pid ? !held.has(path) : !alive(holder)
      if (host === hostname() && Number.isInteger(holder) && gone) await rm(path, { force: true })
      else return `process ${pid} on ${host}`
    }
  }
  return "another process"
}

/**
 * Keeps a second process from opening the embedded database while one has it open: PGlite is a
 * single-process engine and two writers would corrupt the directory. Several processes sharing
 * state is what `DATABASE_URL` is for.
 */
export const lockDirectory = (directory: string): Effect.Effect<void, SqlError, Scope.Scope> => {
  // beside the directory, not in it: PGlite initialises an empty directory
  const path = `${directory}.lock`
  return Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        await mkdir(dirname(directory), { recursive: true, mode: 0o700 })
        return claim(path, `${process.pid} ${hostname()}`)
      },
      catch: (cause) => new SqlError({ cause, message: `cannot lock the embedded database in ${directory}` })
    }).pipe(Effect.flatMap((holder) =>
      holder === undefined ? Effect.void : Effect.fail(
        new SqlError({
          message: `the embedded database in ${directory} is open in ${holder}; stop that process first, ` +
            "or let several processes share a PostgreSQL server (DATABASE_URL)"
        })
      )
    )),
    () =>
      Effect.promise(() => {
        held.delete(path)
        return rm(path, { force: true })
      })
  )
}
