import { Context, Effect, Layer } from "effect"

/**
 * A counter that data services bump whenever content they serve changes (a refreshed eCFR part, a
 * new screening list). Response caches compare it to drop bodies built from older data.
 */
export interface DataGenerationShape {
  readonly current: () => number
  readonly bump: Effect.Effect<void>
}

export class DataGeneration extends Context.Tag("app/DataGeneration")<DataGeneration, DataGenerationShape>() {}

export const make = (): DataGenerationShape => {
  let generation = 0
  return {
    current: () => generation,
    bump: Effect.sync(() => {
      generation++
    })
  }
}

export const layer: Layer.Layer<DataGeneration> = Layer.sync(DataGeneration, make)
