import type { MigrationArea } from "./Area.ts"

/** Migrations of the shared-state store (keys, credits, accounts, OAuth, documents, leases): ids 1–19. */
export const store: MigrationArea = {
  name: "store",
  ids: { first: 1, last: 19 },
  migrations: {}
}
