import type { MigrationArea } from "./Area.ts"

/** Migrations of screening: ids 60–69. Append new ones at the end; never edit a merged one. */
export const screening: MigrationArea = {
  name: "screening",
  ids: { first: 60, last: 69 },
  migrations: {}
}
