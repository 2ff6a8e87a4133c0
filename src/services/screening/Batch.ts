import { Chunk, Effect, Either, Schema, Stream } from "effect"
import { fromParseError } from "../../domain/DecodeIssues.ts"
import { PartyName, type PartyType, type ScreeningRequest, type ScreeningResponse } from "../../domain/Screening.ts"
import type { BatchOptions } from "../../domain/ScreeningBatch.ts"
import { slicer } from "../Cooperative.ts"
import { about, respond, type Snapshot } from "./Respond.ts"

/** One input line of a batch: a party to screen, with what is known of it beside its name. */
export interface BatchLine {
  /** Position in the input (array index + 1, or CSV line number). */
  readonly line: number
  readonly name: string
  readonly country?: string | undefined
  readonly type?: PartyType | undefined
  readonly id?: string | undefined
}

/** A line screened, or why it could not be. */
export type BatchOutcome =
  | { readonly _tag: "Screened"; readonly line: number; readonly name: string; readonly response: ScreeningResponse }
  | { readonly _tag: "Invalid"; readonly line: number; readonly name: string; readonly reason: string }

export interface ScreenedBatch {
  /** What holds for every line: the options applied, the lists, the dataset, the notes. */
  readonly about: ReturnType<typeof about>
  /** The lines' outcomes (an invalid line's `reason` completes "name …"), in input order, screened as they are pulled. */
  readonly results: Stream.Stream<BatchOutcome>
}

const decodeName = Schema.decodeUnknownEither(PartyName)

/** Lines screened between two looks at the clock: a batch of 1,000 names pauses for other requests. */
const LinesPerSlice = 8

/**
 * Screens the lines against one snapshot of the list. A line's own fields (country, type) take
 * precedence over the batch's defaults; a line whose name is blank, too long or has no letters or
 * digits gets its reason instead of matches and the others are screened all the same.
 */
export const screenLines = (
  snapshot: Snapshot,
  lines: ReadonlyArray<BatchLine>,
  options: BatchOptions
): ScreenedBatch => {
  const screenOne = (line: BatchLine): BatchOutcome => {
    const name = decodeName(line.name)
    const shown = line.name.trim()
    if (Either.isLeft(name)) {
      return {
        _tag: "Invalid",
        line: line.line,
        name: shown,
        reason: fromParseError(name.left)[0]?.message ?? "is not valid"
      }
    }
    const request: ScreeningRequest = {
      ...options,
      name: name.right,
      country: line.country ?? options.country,
      type: line.type ?? options.type,
      id: line.id
    }
    return Either.match(respond(snapshot, request), {
      onLeft: (problem) => ({
        _tag: "Invalid",
        line: line.line,
        name: shown,
        reason: problem.invalidParams[0]?.reason ?? "cannot be screened"
      }),
      onRight: (response) => ({ _tag: "Screened", line: line.line, name: shown, response })
    })
  }
  // the event loop gets a turn whenever a slice of lines has taken its budget of time
  const tick = slicer()
  return {
    about: about(snapshot, options),
    results: Stream.fromIterable(lines).pipe(
      Stream.rechunk(LinesPerSlice),
      Stream.mapChunksEffect((chunk) => Effect.zipRight(tick, Effect.sync(() => Chunk.map(chunk, screenOne))))
    )
  }
}
