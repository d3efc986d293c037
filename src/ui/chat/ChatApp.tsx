/**
 * The interactive chat: an input line, the mode always visible (Tab toggles
 * it for the next question), a live timeline of steps, and the charts and
 * tables added so far with small terminal pictures. Esc or Ctrl-C cancels the
 * running step; Ctrl-C when nothing runs (or a second time) quits.
 */
import { Box, Text, useApp, useInput } from 'ink';
import { useCallback, useReducer, useRef, useState } from 'react';
import { artifactsHeading, initialChatState, reduceChat } from './chat-state.js';
import type { ChatAction, ChatMode } from './chat-state.js';
import { terminalText } from '../../util/terminal-text.js';
import { useSubmitGuard } from './use-submit-guard.js';

/** What the chat asks of the host: run one question in a mode, reporting progress as actions. */
export interface ChatController {
  ask(
    question: string,
    mode: ChatMode,
    signal: AbortSignal,
    update: (action: ChatAction) => void,
  ): Promise<{ reportPath: string | null; error?: string }>;
  close(): Promise<void>;
}

/** Props of the chat app. */
export interface ChatAppProps {
  controller: ChatController;
  initialMode: ChatMode;
  title: string;
}

/** How many charts and tables the screen pictures (the newest). */
const SHOWN_ARTIFACTS = 6;

const COLORS: Record<string, string> = {
  question: 'cyan',
  step: 'green',
  tool: 'magenta',
  warning: 'yellow',
  answer: 'white',
  info: 'gray',
  output: 'gray',
  text: 'white',
};

/** The chat screen; every string from data, a program or a model is cleaned of terminal controls. */
export function ChatApp({ controller, initialMode, title }: ChatAppProps) {
  const [state, dispatch] = useReducer(reduceChat, initialMode, initialChatState);
  const [input, setInput] = useState('');
  const mode = useRef<ChatMode>(initialMode);
  const abort = useRef<AbortController | null>(null);
  const recall = useRef<number | null>(null);
  const guard = useSubmitGuard();
  const { exit } = useApp();

  const submit = useCallback(
    (question: string): boolean => {
      if (!question.trim() || !guard.tryStart()) return false;
      const control = new AbortController();
      abort.current = control;
      dispatch({ type: 'submitted', question });
      controller
        .ask(question, mode.current, control.signal, dispatch)
        .then((result) =>
          dispatch({
            type: 'run_finished',
            reportPath: result.reportPath,
            ...(result.error ? { error: result.error } : {}),
          }),
        )
        .catch((error: unknown) =>
          dispatch({
            type: 'run_finished',
            reportPath: null,
            error: error instanceof Error ? error.message : String(error),
          }),
        )
        .finally(() => {
          guard.finish();
          abort.current = null;
        });
      return true;
    },
    [controller, guard],
  );

  const quit = useCallback(() => {
    abort.current?.abort();
    void controller.close().finally(() => exit());
  }, [controller, exit]);

  useInput((char, key) => {
    const cancelKey = key.escape || (key.ctrl && char === 'c');
    if (cancelKey) {
      if (abort.current && !abort.current.signal.aborted) {
        abort.current.abort();
        dispatch({ type: 'cancelled' });
      } else if (key.ctrl) quit();
      return;
    }
    if (key.tab) {
      mode.current = mode.current === 'fast' ? 'deep' : 'fast';
      dispatch({ type: 'toggle_mode' });
      return;
    }
    if (key.return || /[\r\n]/.test(char)) {
      // A pasted or fast-typed line can arrive in one chunk with its Enter.
      const typed = key.return ? input : input + char.split(/[\r\n]/)[0];
      if (submit(typed)) setInput('');
      else if (!key.return) setInput(typed);
      recall.current = null;
      return;
    }
    if (key.upArrow || key.downArrow) {
      const history = state.history;
      if (history.length === 0) return;
      const at = recall.current ?? history.length;
      const next = Math.max(0, Math.min(history.length, at + (key.upArrow ? -1 : 1)));
      recall.current = next;
      setInput(history[next] ?? '');
      return;
    }
    if (key.backspace || key.delete) setInput((s) => s.slice(0, -1));
    else if (char && !key.ctrl && !key.meta) setInput((s) => s + char);
  });

  return (
    <Box flexDirection="column">
      <Text bold>
        opsmind chat · {terminalText(title)} · mode{' '}
        <Text color={state.mode === 'deep' ? 'magenta' : 'green'}>{state.mode}</Text> (Tab to
        switch) · Esc cancels · Ctrl-C quits
      </Text>
      {state.timeline.slice(-24).map((entry, i) => (
        <Box key={i} flexDirection="column">
          <Text color={COLORS[entry.kind] ?? 'white'}>{terminalText(entry.text)}</Text>
          {entry.code ? (
            <Text dimColor>
              {terminalText(
                entry.code
                  .split('\n')
                  .slice(0, 8)
                  .map((l) => `    ${l}`)
                  .join('\n'),
              )}
            </Text>
          ) : null}
        </Box>
      ))}
      {state.streaming ? <Text>{terminalText(state.streaming.slice(-400))}</Text> : null}
      {state.artifacts.length ? (
        <Text bold>{artifactsHeading(state.artifacts.length, SHOWN_ARTIFACTS)}</Text>
      ) : null}
      {state.artifacts.slice(-SHOWN_ARTIFACTS).map((a) => (
        <Box key={a.key} flexDirection="column">
          <Text>
            {terminalText(a.kind.padEnd(9))} {terminalText(a.title)}
          </Text>
          {a.picture.map((line, i) => (
            <Text key={i} color="blue">
              {' '}
              {terminalText(line)}
            </Text>
          ))}
        </Box>
      ))}
      {state.reportPath ? <Text dimColor>report: {terminalText(state.reportPath)}</Text> : null}
      <Text>
        <Text color={state.running ? 'yellow' : 'cyan'}>{state.running ? '… ' : '› '}</Text>
        {terminalText(input)}
      </Text>
    </Box>
  );
}
