import { Layer } from "effect"
import * as CourtRecords from "../services/CourtRecords.ts"
import * as Notes from "../services/workspace/Notes.ts"
import * as Products from "../services/workspace/Products.ts"
import * as ScreeningRegistry from "../services/workspace/ScreeningRegistry.ts"
import * as Transactions from "../services/workspace/Transactions.ts"

/**
 * The enterprise workspace records on the deployment's SQL store (products read the radar,
 * screenings the list), and the court records read under each caller's CourtListener token.
 */
export const WorkspaceServices = Layer.mergeAll(
  CourtRecords.layer,
  Transactions.layer,
  Products.layer,
  Notes.layer,
  ScreeningRegistry.layer
)
