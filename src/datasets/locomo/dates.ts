/**
 * LoCoMo session dates read like "1:56 pm on 8 May, 2023". They carry no zone, so they are taken
 * as UTC: the virtual clock only needs their order and spacing, and UTC keeps them independent of
 * the machine's time zone.
 */

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

const PATTERN = /^\s*(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})\s*$/i;

export const LOCOMO_DATE_EXAMPLE = "1:56 pm on 8 May, 2023";

function monthIndex(name: string): number {
  const lower = name.toLowerCase();
  // Full names, or an abbreviation of at least three letters ("Sep", "Sept").
  if (lower.length < 3) return -1;
  return MONTHS.findIndex((month) => month.startsWith(lower));
}

/** Epoch ms (UTC) of a LoCoMo date, or null when the text is not one (including "31 February"). */
export function parseLocomoDate(text: string): number | null {
  const match = PATTERN.exec(text);
  if (!match) return null;
  const [, hourText, minuteText, meridiem, dayText, monthText, yearText] = match;
  const hour12 = Number(hourText);
  const minute = Number(minuteText);
  const day = Number(dayText);
  const month = monthIndex(monthText);
  const year = Number(yearText);
  if (hour12 < 1 || hour12 > 12 || minute > 59 || month < 0 || day < 1) return null;
  // 12:xx am is just after midnight and 12:xx pm just after noon.
  const hour = (hour12 % 12) + (meridiem.toLowerCase() === "p" ? 12 : 0);
  const time = Date.UTC(year, month, day, hour, minute);
  // Date.UTC rolls "31 February" over into March; a real date survives the round trip.
  if (new Date(time).getUTCDate() !== day) return null;
  return time;
}
