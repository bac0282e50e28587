// Reads an MCAP file with @mcap/core, independently of the Go writer, and
// prints what it found as JSON: every channel's topic, schema and message
// count. It fails (exit 1) when the file is not valid MCAP: the indexed
// reader checks the summary CRC when it opens the file and each chunk's CRC
// as it reads; the data section's CRC (in the DataEnd record) is checked
// here; the streaming reader checks every chunk's CRC record by record.
import { crc32 } from "@foxglove/crc";
import { open, readFile } from "node:fs/promises";
import { McapIndexedReader, McapStreamReader } from "@mcap/core";
import { FileHandleReadable } from "@mcap/nodejs";

const file = process.argv[2];
if (!file) {
  console.error("usage: node check.mjs FILE.mcap");
  process.exit(2);
}

function fail(msg) {
  console.error("invalid MCAP: " + msg);
  process.exit(1);
}

const handle = await open(file, "r");
const reader = await McapIndexedReader.Initialize({ readable: new FileHandleReadable(handle) });
if (reader.footer.summaryCrc === 0) fail("the footer has no summary CRC");
if (!reader.statistics) fail("no statistics in the summary");
if (reader.chunkIndexes.length === 0) fail("no chunk indexes: the file is not chunked");
for (const ci of reader.chunkIndexes) {
  if (ci.messageIndexOffsets.size === 0) fail(`chunk at ${ci.chunkStartOffset} has no message indexes`);
  if (ci.compression !== "") fail(`chunk at ${ci.chunkStartOffset} is ${ci.compression}-compressed; this check reads uncompressed chunks`);
}

const channels = {};
for (const [id, ch] of reader.channelsById) {
  const schema = ch.schemaId === 0 ? null : reader.schemasById.get(ch.schemaId);
  if (ch.schemaId !== 0 && !schema) fail(`channel ${ch.topic}: schema ${ch.schemaId} not in the summary`);
  if (schema) {
    try {
      JSON.parse(new TextDecoder().decode(schema.data));
    } catch (e) {
      fail(`schema ${schema.name}: not JSON: ${e.message}`);
    }
  }
  channels[id] = {
    topic: ch.topic,
    messageEncoding: ch.messageEncoding,
    schema: schema ? schema.name : "",
    schemaEncoding: schema ? schema.encoding : "",
    count: 0,
    statsCount: Number(reader.statistics.channelMessageCounts.get(id) ?? 0n),
  };
}

const problems = [];
let indexed = 0;
for await (const msg of reader.readMessages({ validateCrcs: true })) {
  indexed++;
  const ch = channels[msg.channelId];
  if (!ch) fail(`message on unknown channel ${msg.channelId}`);
  ch.count++;
  if (msg.publishTime !== msg.logTime) problems.push(`${ch.topic}: publish_time ${msg.publishTime} != log_time ${msg.logTime}`);
  let body;
  try {
    body = JSON.parse(new TextDecoder().decode(msg.data));
  } catch (e) {
    fail(`${ch.topic}: message is not JSON: ${e.message}`);
  }
  const ts = body.timestamp;
  if (ch.schema.startsWith("foxglove.") && ch.schema !== "foxglove.SceneUpdate") {
    if (!ts || BigInt(ts.sec) * 1000000000n + BigInt(ts.nsec) !== msg.logTime) problems.push(`${ch.topic}: timestamp is not the log time`);
  }
  if (ch.schema === "foxglove.CompressedImage") {
    const png = Buffer.from(body.data, "base64");
    if (body.format !== "png" || png.subarray(1, 4).toString() !== "PNG") problems.push(`${ch.topic}: not a PNG image`);
  }
  if (ch.schema === "foxglove.FrameTransform" && (body.parent_frame_id !== "map" || body.child_frame_id !== "base")) {
    problems.push(`${ch.topic}: ${body.parent_frame_id} → ${body.child_frame_id}, want map → base`);
  }
  if (ch.schema === "foxglove.SceneUpdate" && !body.entities.every((e) => e.frame_id === "map")) {
    problems.push(`${ch.topic}: an entity outside the map frame`);
  }
}
await handle.close();
if (BigInt(indexed) !== reader.statistics.messageCount) {
  fail(`${indexed} messages read, the statistics say ${reader.statistics.messageCount}`);
}

// The streaming reader reads the file front to back, record by record.
const stream = new McapStreamReader({ validateCrcs: true });
const bytes = await readFile(file);
if (!reader.dataSectionCrc) fail("no data section CRC");
const dataCrc = crc32(bytes.subarray(0, Number(reader.dataEndOffset)));
if (dataCrc !== reader.dataSectionCrc) fail(`data section CRC ${dataCrc}, DataEnd says ${reader.dataSectionCrc}`);
stream.append(bytes);
let streamed = 0;
let footer = false;
for (let rec; (rec = stream.nextRecord()); ) {
  if (rec.type === "Message") streamed++;
  if (rec.type === "Footer") footer = true;
}
if (!stream.done()) fail("the streaming reader did not reach the end magic");
if (!footer) fail("no footer");
if (streamed !== indexed) fail(`${streamed} messages streamed, ${indexed} read through the index`);

console.log(JSON.stringify({ channels: Object.values(channels), messages: indexed, chunks: reader.chunkIndexes.length, problems }));
