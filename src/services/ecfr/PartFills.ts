import type { SqlError } from "@effect/sql/SqlError"
import { Context, Effect, Layer } from "effect"
import type { SupportedPartInfo } from "../../domain/Service.ts"
import type { RefreshOutcome } from "./Mirror.ts"
import type { Snapshot } from "./Snapshot.ts"

/** A part as this instance holds it, and how it takes a snapshot another instance fetched. */
export interface LocalPart {
  readonly info: SupportedPartInfo
  readonly snapshot: () => Snapshot | undefined
  /** The download time of the copy this instance holds, loaded or only stored (ISO); undefined when none. */
  readonly fetchedAt: () => string | undefined
  /**
   * Takes the given snapshot (undefined: the one held is confirmed current) as verified at
   * `verifiedAt` (epoch ms), saving it where this instance keeps its copy.
   */
  readonly adopt: (snapshot: Snapshot | undefined, verifiedAt: number) => Effect.Effect<RefreshOutcome>
}

export interface RefreshRequest {
  readonly force: boolean
  /** When the refresh was asked for (epoch ms): a forced one is satisfied by a check made after it. */
  readonly requestedAt: number
  readonly freshForMillis: number
}

/**
 * What `publish` did with a snapshot: nothing (an instance alone shares nothing), made it the
 * instances' shared snapshot, or left the shared one, downloaded later, in place.
 */
export type PublishOutcome = "alone" | "published" | "newer kept"

/**
 * Who asks the upstream for a part. Alone (the embedded engine, one process) an instance always
 * downloads itself; instances sharing PostgreSQL take a part another one fetched, and only one of
 * them downloads it at a time (`SharedFills.ts`).
 */
export interface PartFillsShape {
  /**
   * Refreshes `part`: adopts a snapshot another instance fetched, or runs `download`. When another
   * instance's download of the part has just failed, fails with `failedElsewhere` instead of asking
   * the upstream again (so instances waiting on a failing holder do not each try it in turn).
   */
  readonly refresh: <E>(
    part: LocalPart,
    request: RefreshRequest,
    download: Effect.Effect<RefreshOutcome, E>,
    failedElsewhere: Effect.Effect<never, E>
  ) => Effect.Effect<RefreshOutcome, E>
  /**
   * Offers the other instances a snapshot stored without a refresh (`ecds sync`, a bundle import),
   * as confirmed current at `verifiedAt` (epoch ms). A snapshot downloaded later stays.
   */
  readonly publish: (snapshot: Snapshot, verifiedAt: number) => Effect.Effect<PublishOutcome, SqlError>
}

export class PartFills extends Context.Tag("app/PartFills")<PartFills, PartFillsShape>() {}

/** Every refresh downloads: nothing else shares the upstream's answers. */
export const alone: PartFillsShape = {
  refresh: (_part, _request, download) => download,
  publish: () => Effect.succeed("alone")
}

export const layerAlone: Layer.Layer<PartFills> = Layer.succeed(PartFills, alone)
