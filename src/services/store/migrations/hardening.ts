import type { MigrationArea } from "./Area.ts"

/** Migrations of hardening: ids 70–79. Append new ones at the end; never edit a merged one. */
export const hardening: MigrationArea = {
  name: "hardening",
  ids: { first: 70, last: 79 },
  migrations: {}
}
