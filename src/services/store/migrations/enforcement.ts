import type { MigrationArea } from "./Area.ts"

/** Migrations of the enforcement archive: ids 20–39. Append new ones at the end; never edit a merged one. */
export const enforcement: MigrationArea = {
  name: "enforcement",
  ids: { first: 20, last: 39 },
  migrations: {}
}
