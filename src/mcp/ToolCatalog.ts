import * as Catalog from "./Catalog.ts"
import { countryChartResources, eccnResources } from "./resources/Eccn.ts"
import { ecfrResources } from "./resources/Ecfr.ts"
import { skillResources } from "./resources/Skills.ts"
import { courtRecordsTools } from "./tools/CourtRecords.ts"
import { documentTools } from "./tools/Documents.ts"
import { eccnTools } from "./tools/Eccn.ts"
import { ecfrTools } from "./tools/Ecfr.ts"
import { enforcementTools } from "./tools/Enforcement.ts"
import { partyEnforcementTools } from "./tools/PartyEnforcement.ts"
import { regulatoryStatusTools } from "./tools/RegulatoryStatus.ts"
import { researchTools } from "./tools/Research.ts"
import { screeningTools } from "./tools/Screening.ts"
import { skillsTools } from "./tools/Skills.ts"
import { noteTools } from "./tools/WorkspaceNotes.ts"
import { productTools } from "./tools/WorkspaceProducts.ts"
import { screeningRegistryTools } from "./tools/WorkspaceScreenings.ts"
import { transactionTools } from "./tools/WorkspaceTransactions.ts"

/**
 * The production MCP surface: every tool in the order `tools/list` shows it, and every resource
 * family. A tool is listed here only once the service behind its REST twin exists.
 */
export const productionTools = [
  ...skillsTools,
  ...ecfrTools,
  ...eccnTools,
  ...regulatoryStatusTools,
  ...screeningTools,
  ...enforcementTools,
  ...researchTools,
  ...partyEnforcementTools,
  ...documentTools,
  ...transactionTools,
  ...productTools,
  ...noteTools,
  ...screeningRegistryTools,
  ...courtRecordsTools
] as const

export const productionResources = [skillResources, ecfrResources, eccnResources, countryChartResources] as const

/** Every tool name the service offers, free and enterprise. */
export const toolNames: ReadonlyArray<string> = productionTools.map((tool) => tool.name)

export const McpCatalogLive = Catalog.layer({ tools: productionTools, resources: productionResources })
