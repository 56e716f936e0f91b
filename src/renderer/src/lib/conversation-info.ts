// Who a conversation is, for a link that carries only its id or reference (a tool card's hit, an
// Activity row): fetched once per page and kept, so a list of hits asks for each conversation once.
import { useEffect, useState } from 'react';
import type { Conversation } from '../../../shared/types';
import { call } from './transport';

export type ConversationInfo = Pick<Conversation, 'id' | 'title' | 'source' | 'workspace'>;

/** null: not in the index (forgotten, excluded, or from another machine). */
const known = new Map<string, Promise<ConversationInfo | null>>();

function lookUp(ref: string | number): Promise<ConversationInfo | null> {
  const key = String(ref);
  let p = known.get(key);
  if (!p) {
    p = call('conversations.get', { conversation_id: ref }).then(
      ({ conversation: c }) => ({ id: c.id, title: c.title, source: c.source, workspace: c.workspace }),
      () => null,
    );
    known.set(key, p);
  }
  return p;
}

/** The conversation behind `ref` (undefined while asking, null when it is not in the index). */
export function useConversationInfo(ref: string | number | null): ConversationInfo | null | undefined {
  const [info, setInfo] = useState<ConversationInfo | null | undefined>(undefined);
  useEffect(() => {
    if (ref === null || ref === '') return setInfo(null);
    let live = true;
    setInfo(undefined);
    void lookUp(ref).then((i) => live && setInfo(i));
    return () => {
      live = false;
    };
  }, [ref]);
  return info;
}
