// One <option> per agent Throughline reads, in a fixed order: for every agent picker.
import type { SourceKind } from '../../../shared/types';
import { SOURCE_LABEL } from '../lib/format';

export function AgentOptions() {
  return (Object.keys(SOURCE_LABEL) as SourceKind[]).map((k) => (
    <option key={k} value={k}>
      {SOURCE_LABEL[k]}
    </option>
  ));
}
