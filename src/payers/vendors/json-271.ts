/** The 271 a JSON connector writes from a vendor's answer for our own 271 reader: one production interchange, the vendor to us. */
import { X279_VERSION } from '../../x12/build-270.ts';
import { wrapInterchange, type SegmentList } from '../../x12/writer.ts';

export function interchange271(body: SegmentList, sender: 'VENDOR' | 'AVAILITY' = 'VENDOR'): string {
  return wrapInterchange({ functional_id: 'HB', set_id: '271', version: X279_VERSION, body, sender, receiver: 'COVERAGE', env: { usage: 'P' } });
}
