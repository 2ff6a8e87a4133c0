import * as Tool from "../../src/mcp/Tool.ts"
import { productionTools, toolNames } from "../../src/mcp/ToolCatalog.ts"

/** The MCP tools the service offers (the catalogue's names, whatever the caller's disclosure). */
export const mcpToolNames = (): ReadonlySet<string> => new Set(toolNames)

/** Each tool's argument names, as `tools/list` publishes its input schema. */
export const mcpToolArguments = (): ReadonlyMap<string, ReadonlySet<string>> =>
  new Map(productionTools.map((tool) => {
    const schema = Tool.jsonSchemaOf(tool.input) as { properties?: Record<string, unknown> }
    return [tool.name, new Set(Object.keys(schema.properties ?? {}))]
  }))

/**
 * The tool names SPEC.md publishes (free tools and the enterprise tools still to be built; built
 * ones are checked against the catalogue). A skill mentioning one the catalogue does not offer yet
 * is pending, not wrong; any other unknown name is a problem.
 */
export const specToolNames = (): ReadonlySet<string> => new Set([...freeTools, ...enterpriseTools])

const freeTools = [
  "list_skills",
  "get_skill",
  "get_skill_bundle",
  "get_ecfr_part",
  "get_ecfr_sections",
  "search_ecfr_part",
  "search_ecfr_title",
  "get_ecfr_text",
  "get_eccn",
  "get_country_chart_row",
  "get_regulatory_status",
  "search_csl",
  "get_rule_changes",
  "get_enforcement_actions",
  "search_enforcement_documents",
  "get_enforcement_document",
  "search_federal_register",
  "get_federal_register_document",
  "search_sec_edgar",
  "search_ecfr",
  "search_govinfo",
  "search_regulations"
]

/** Enterprise tools SPEC.md names by name (all built now; kept so a skill naming one is never reported as unknown). */
const enterpriseTools = [
  "list_compliance_transactions",
  "record_screening",
  "search_court_records",
  "find_court_case",
  "get_court_case_documents"
]
