import { SqlClient } from "@effect/sql/SqlClient"
import { Context, Effect, Layer } from "effect"

/**
 * Which note targets (workspace, kind, key) may hold notes. Every official answer an agent reads
 * (get_eccn, get_country_chart_row) asks for the caller's notes beside it, and almost none find any:
 * on the embedded engine that statement cost more than the rest of the call. The store's layer
 * decides how this is answered (`src/layers/Store.ts`): a database this process alone writes keeps an
 * index of its targets; a shared one (PostgreSQL, other instances write too) asks the store each time.
 */
export interface NoteTargetsShape {
  /** Records that a note is about to be written to a target: before the statement, never after. */
  readonly mark: (workspace: string, kind: string, key: string) => Effect.Effect<void>
  /** Whether any of the targets may hold a note; `false` only when none can. */
  readonly mayHold: (
    workspace: string,
    targets: ReadonlyArray<{ readonly kind: string; readonly key: string }>
  ) => boolean
}

export class NoteTargets extends Context.Tag("NoteTargets")<NoteTargets, NoteTargetsShape>() {}

const keyOf = (workspace: string, kind: string, key: string) => `${workspace}\u0000${kind}\u0000${key}`

/** A store other instances write too: every lookup asks it. */
export const layerShared: Layer.Layer<NoteTargets> = Layer.succeed(NoteTargets, {
  mark: () => Effect.void,
  mayHold: () => true
})

/**
 * A store only this process writes (the embedded engine: in memory, or in a directory it locks),
 * built after its migrations: the targets it already holds are read once, and every later write
 * adds its target first. The index only errs on the side of asking: a failed or rolled-back write
 * leaves a harmless extra entry, a deleted note's target stays, and a store that cannot be read at
 * start leaves no index (every lookup asks).
 */
export const layerExclusive: Layer.Layer<NoteTargets, never, SqlClient> = Layer.effect(
  NoteTargets,
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const targets = yield* sql<{ workspace: string; kind: string; key: string }>`SELECT DISTINCT workspace, kind, key
      FROM workspace_notes`.pipe(
      Effect.map((rows) => new Set(rows.map((row) => keyOf(row.workspace, row.kind, row.key)))),
      Effect.option
    )
    if (targets._tag === "None") return yield* NoteTargets.pipe(Effect.provide(layerShared))
    const index = targets.value
    return {
      mark: (workspace, kind, key) => Effect.sync(() => void index.add(keyOf(workspace, kind, key))),
      mayHold: (workspace, wanted) => wanted.some((target) => index.has(keyOf(workspace, target.kind, target.key)))
    }
  })
)
