import { normalize } from "./Normalize.ts"

/** Words before the comma of an OFAC-style "SURNAME, Given Names" string (0 without one). */
export const surnameCountOf = (listed: string, count: number): number => {
  const comma = listed.indexOf(",")
  if (comma <= 0 || count < 2) return 0
  const surnameCount = normalize(listed.slice(0, comma)).tokens.length
  return surnameCount >= count ? 0 : surnameCount
}

/**
 * The token positions of a name as written and, for "SURNAME, Given Names", given names first:
 * joins are also taken in that order, since that is how people write the name.
 */
export const readingOrders = (listed: string, count: number): Array<Array<number>> => {
  const positions = Array.from({ length: count }, (_, i) => i)
  const surnameCount = surnameCountOf(listed, count)
  if (surnameCount === 0) return [positions]
  return [positions, [...positions.slice(surnameCount), ...positions.slice(0, surnameCount)]]
}
