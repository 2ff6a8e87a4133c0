import { Effect } from "effect"

/**
 * Turns on PGlite's single connection: one statement, or one transaction, at a time, in the order
 * they asked. A plain promise chain rather than an Effect semaphore held through a scope: for a
 * statement outside a transaction the semaphore, its scope finalizer and its interruption masks
 * allocated about 12 KB and took about 10 µs of CPU, more than an indexed lookup costs PGlite.
 *
 * A turn given up before it began (its fiber interrupted while waiting) is skipped; one that began
 * runs to its end before the next, whether or not anyone still waits for its answer.
 */
export const makeTurns = () => {
  let last: Promise<unknown> = Promise.resolve()
  const enqueue = (turn: () => Promise<unknown> | undefined) => {
    // a turn never rejects (`statement` and `hold` settle their own outcome): the chain never breaks
    last = last.then(turn)
  }

  /** Runs `task` in its turn; the fiber waits for its answer. */
  const statement = <A, E>(task: () => Promise<A>, failure: (cause: unknown) => E): Effect.Effect<A, E> =>
    Effect.async<A, E>((resume) => {
      let abandoned = false
      enqueue(() => {
        if (abandoned) return undefined
        try {
          return task().then(
            (value) => {
              if (!abandoned) resume(Effect.succeed(value))
            },
            (cause) => {
              if (!abandoned) resume(Effect.fail(failure(cause)))
            }
          )
        } catch (cause) {
          resume(Effect.fail(failure(cause)))
          return undefined
        }
      })
      return Effect.sync(() => {
        abandoned = true
      })
    })

  /**
   * Waits for a turn and keeps it until the returned function is called (a transaction's scope).
   * Interrupted while waiting, it gives the turn back as soon as it comes.
   */
  const hold: Effect.Effect<() => void> = Effect.async<() => void>((resume) => {
    let abandoned = false
    let end: (() => void) | undefined
    enqueue(() =>
      new Promise<void>((release) => {
        if (abandoned) return release()
        end = release
        resume(Effect.succeed(release))
      })
    )
    return Effect.sync(() => {
      abandoned = true
      end?.()
    })
  })

  return { statement, hold }
}
