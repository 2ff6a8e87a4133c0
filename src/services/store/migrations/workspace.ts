import type { MigrationArea } from "./Area.ts"

/** Migrations of the enterprise workspace: ids 40–59. Append new ones at the end; never edit a merged one. */
export const workspace: MigrationArea = {
  name: "workspace",
  ids: { first: 40, last: 59 },
  migrations: {}
}
