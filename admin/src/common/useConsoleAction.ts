import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify, useRefresh } from 'react-admin';
import type { ConsoleDataProvider } from '../dataProvider';

/** What a done action tells: text, or a catalog key with its arguments. */
type Notice = string | { message: string; messageArgs: Record<string, unknown> };

/**
 * One of the console's actions: react-query's useMutation of a dataProvider method (`isPending` while it runs).
 * Done, it notifies and refreshes; refused, it refreshes too (someone may have acted on the record meanwhile).
 */
export function useConsoleAction<T>(
  run: (dataProvider: ConsoleDataProvider) => Promise<{ data: T }>,
  notice: (result: T) => Notice,
) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: () => run(dataProvider),
    onSuccess: ({ data }) => {
      const told = notice(data);
      const { message, messageArgs } = typeof told === 'string' ? { message: told, messageArgs: undefined } : told;
      notify(message, { type: 'success', messageArgs });
      refresh();
    },
    onError: () => refresh(),
  });
}
