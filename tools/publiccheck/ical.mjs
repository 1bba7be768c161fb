// Imports the iCalendar files named on the command line with two calendar
// libraries recordsbot shares no code with: Mozilla's ical.js (Thunderbird's
// calendar engine), strictly, and node-ical. Both must read every event the
// same; prints the events as JSON ({uid, summary, description, location,
// url, start, allDay, sequence}) and exits non-zero on any disagreement or
// parse error. Used by the Go tests (internal/ical/icaltest.NodeEvents).
import { readFileSync } from "node:fs";
import ICAL from "ical.js";
import nodeical from "node-ical";

const out = [];
for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, "utf8");
  const comp = new ICAL.Component(ICAL.parse(text));
  if (comp.getFirstPropertyValue("version") !== "2.0") throw new Error("VERSION is not 2.0");
  if (!comp.getFirstPropertyValue("prodid")) throw new Error("no PRODID");
  const parsed = nodeical.sync.parseICS(text);
  for (const v of comp.getAllSubcomponents("vevent")) {
    const ev = new ICAL.Event(v);
    const start = ev.startDate;
    const got = {
      uid: ev.uid,
      summary: ev.summary ?? "",
      description: ev.description ?? "",
      location: ev.location ?? "",
      url: v.getFirstPropertyValue("url") ?? "",
      start: start.isDate ? start.toString() : start.toJSDate().toISOString().replace(".000Z", "Z"),
      allDay: start.isDate,
      sequence: ev.sequence,
    };
    const other = parsed[ev.uid];
    if (!other || other.type !== "VEVENT") throw new Error(`node-ical did not read event ${ev.uid}`);
    if ((other.summary?.val ?? other.summary ?? "") !== got.summary) {
      throw new Error(`summary of ${ev.uid}: ical.js ${JSON.stringify(got.summary)}, node-ical ${JSON.stringify(other.summary)}`);
    }
    if (!got.allDay && other.start.getTime() !== start.toJSDate().getTime()) {
      throw new Error(`start of ${ev.uid}: ical.js ${got.start}, node-ical ${other.start.toISOString()}`);
    }
    out.push(got);
  }
}
process.stdout.write(JSON.stringify(out));
