/** Query keys of the certificates tab, from one factory. */
export const certificateKeys = {
  all: ['certificates'] as const,
  items: () => [...certificateKeys.all, 'items'] as const,
};
