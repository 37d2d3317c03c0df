import { describe, expect, it } from "vitest";
import { parseLocomoDate } from "../../../src/datasets/locomo/dates.js";

describe("parseLocomoDate", () => {
  it("reads the file's format as UTC", () => {
    expect(parseLocomoDate("1:56 pm on 8 May, 2023")).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(parseLocomoDate("10:37 am on 27 June, 2023")).toBe(Date.UTC(2023, 5, 27, 10, 37));
  });

  it("puts 12 am just after midnight and 12 pm just after noon", () => {
    expect(parseLocomoDate("12:09 am on 13 September, 2023")).toBe(Date.UTC(2023, 8, 13, 0, 9));
    expect(parseLocomoDate("12:09 pm on 13 September, 2023")).toBe(Date.UTC(2023, 8, 13, 12, 9));
  });

  it("tolerates case, a missing comma and abbreviated months", () => {
    expect(parseLocomoDate("1:56 PM on 8 may 2023")).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(parseLocomoDate("9:00 am on 1 Sept, 2023")).toBe(Date.UTC(2023, 8, 1, 9, 0));
  });

  it("rejects what is not a real date in that format", () => {
    for (const text of [
      "2023-05-08T13:56:00Z",
      "13:56 pm on 8 May, 2023",
      "0:56 am on 8 May, 2023",
      "1:60 pm on 8 May, 2023",
      "1:56 pm on 31 February, 2023",
      "1:56 pm on 0 May, 2023",
      "1:56 pm on 8 Ma, 2023",
      "1:56 pm on 8 Smarch, 2023",
      "",
    ]) {
      expect(parseLocomoDate(text), text).toBeNull();
    }
  });
});
