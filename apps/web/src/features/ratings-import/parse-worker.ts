/// <reference lib="webworker" />
import { parseRatingsCsv } from '@console/contracts/ratings-csv';

/** Reads one ratings CSV (its text) off the page's thread and answers the parse result. */
self.onmessage = (event: MessageEvent<string>) => {
  self.postMessage(parseRatingsCsv(event.data));
};
