/**
 * The names a list record is searched under. Besides the primary name and each alternate name as
 * listed, some list strings pack several names into one ("Cho Yan Nathan; a.k.a Nathan Man Man",
 * "PEARL (A.K.A. NEI-CHIEN CHU) LI", "X and any successor, sub-unit, or subsidiary thereof") or add
 * a parenthetical qualifier ("... (PTE) LTD.", "(Kaliningrad)"). Each such part becomes a searchable
 * name of its own, shown to the user as the listed string it came from.
 */

export interface SearchableName {
  /** The text to normalize and match. */
  readonly text: string
  /** The name as listed (what a match reports). */
  readonly listed: string
  readonly kind: "name" | "alt_name"
}

const successorClause = /[;,]?\s*and any successor,? sub-unit,? or subsidiary thereof\.?/gi
const akaSeparator =
  /\s*[;,]?\s*\b(?:a\.?\s?k\.?\s?a|f\.?\s?k\.?\s?a|n\.?\s?k\.?\s?a|also known as|formerly known as)\b\.?[,:]?\s*/i
const akaParenthetical =
  /\(\s*(?:a\.?\s?k\.?\s?a|f\.?\s?k\.?\s?a|n\.?\s?k\.?\s?a|also known as|formerly known as)\b\.?[,:]?\s*([^()]*(?:\([^()]*\)[^()]*)*)\)/gi
const parenthetical = /\s*\([^()]*\)/g
const hasParenthetical = /\([^()]*\)/

const tidy = (text: string) => text.replace(/\s+/g, " ").replace(/^[\s,;.-]+|[\s,;-]+$/g, "")

/** Whether a listed string may pack more than one name (most do not; they skip the splitting). */
const packed = /[(;]|k\.?\s?a\b|known as|successor/i

/** The distinct texts one listed string stands for, the listed string itself first. */
export const namesIn = (listed: string): Array<string> => {
  if (!packed.test(listed)) return [tidy(listed)].filter((text) => text !== "")
  const texts = [listed]
  const base = listed.replace(successorClause, "")
  const embedded: Array<string> = []
  const withoutAka = base.replace(akaParenthetical, (_, inner: string) => {
    embedded.push(inner)
    return " "
  })
  for (const part of withoutAka.split(new RegExp(akaSeparator, "gi"))) {
    texts.push(part)
    if (hasParenthetical.test(part)) texts.push(part.replace(parenthetical, " "))
  }
  texts.push(...embedded)
  const seen = new Set<string>()
  return texts.map(tidy).filter((text) => {
    if (text === "" || seen.has(text)) return false
    seen.add(text)
    return true
  })
}

export const searchableNames = (
  name: string,
  altNames: ReadonlyArray<string | null>
): Array<SearchableName> => [
  ...namesIn(name).map((text) => ({ text, listed: name, kind: "name" as const })),
  ...altNames.flatMap((alt) =>
    alt === null || alt.trim() === ""
      ? []
      : namesIn(alt).map((text) => ({ text, listed: alt, kind: "alt_name" as const }))
  )
]
