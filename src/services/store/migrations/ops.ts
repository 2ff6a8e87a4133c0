import type { MigrationArea } from "./Area.ts"

/** Migrations of operations: ids 80–89. Append new ones at the end; never edit a merged one. */
export const ops: MigrationArea = {
  name: "ops",
  ids: { first: 80, last: 89 },
  migrations: {}
}
