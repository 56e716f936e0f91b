import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { useConversations } from './stores/conversations';
import { useRoute } from './stores/route';
import './styles/base.css';
import './styles/layout.css';
import './styles/conversations.css';
import './styles/transcript.css';
import './styles/tool-cards.css';
import './styles/code.css';
import './styles/panels.css';

// The list is what the window shows first: asked for before React's first render, not after it.
if (useRoute.getState().route.view === 'conversations') useConversations.getState().reload();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
