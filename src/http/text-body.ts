/**
 * A text upload's body (CSV), decoded chunk by chunk as it arrives rather than all at once at its
 * end: fastify's `parseAs: 'string'` concatenates the chunks and decodes the whole in one call, which
 * for an 8 MB upload held the event loop some 50 ms on a loaded 2-core machine (bench/RESULTS.md).
 * What is left at the end is one join of the decoded pieces. The limits and refusals are fastify's
 * own, with its error codes (errors.ts answers them): a Content-Length past the limit before
 * anything is read, a body growing past it while it is read, a body shorter or longer than its
 * Content-Length.
 */
import { StringDecoder } from 'node:string_decoder';
import { errorCodes, type FastifyRequest } from 'fastify';

type Payload = NodeJS.ReadableStream & { receivedEncodedLength?: number };

export function textBodyParser(limit: number) {
  return (request: FastifyRequest, payload: Payload, done: (err: Error | null, body?: string) => void): void => {
    const contentLength = Number(request.headers['content-length']);
    if (contentLength > limit) {
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    const decoder = new StringDecoder('utf8');
    const parts: string[] = [];
    let received = 0;
    const stop = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
    };
    function onData(chunk: Buffer | string) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > limit || (payload.receivedEncodedLength ?? 0) > limit) {
        stop();
        done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      parts.push(decoder.write(bytes));
    }
    function onEnd(err?: Error & { statusCode?: number }) {
      stop();
      if (err) {
        if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
        done(err);
        return;
      }
      if (!Number.isNaN(contentLength) && (payload.receivedEncodedLength || received) !== contentLength) {
        done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
      parts.push(decoder.end());
      done(null, parts.join(''));
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  };
}
