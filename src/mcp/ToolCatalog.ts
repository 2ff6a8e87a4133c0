import * as Catalog from "./Catalog.ts"
import type * as Resource from "./Resource.ts"
import { regulatoryStatusTools } from "./tools/RegulatoryStatus.ts"

/**
 * The production MCP surface: every tool in the order `tools/list` shows it, and every resource
 * family. A tool is listed here only once the service behind its REST twin exists.
 */
export const productionTools = [...regulatoryStatusTools] as const

export const productionResources: ReadonlyArray<Resource.Provider<any, never>> = []

/** Every tool name the service offers, free and enterprise. */
export const toolNames: ReadonlyArray<string> = productionTools.map((tool) => tool.name)

export const McpCatalogLive = Catalog.layer({ tools: productionTools, resources: productionResources })
