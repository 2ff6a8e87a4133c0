import { areas } from "../../src/services/store/migrations/index.ts"

/**
 * Every area's migrations, the enforcement area's only up to `last`: a store as a release before
 * that migration left it, for tests of what a later migration does to existing rows.
 */
export const enforcementMigrationsUpTo = (last: number) =>
  areas.map((area) =>
    area.name === "enforcement"
      ? {
        ...area,
        migrations: Object.fromEntries(Object.entries(area.migrations).filter(([id]) => parseInt(id, 10) <= last))
      }
      : area
  )
