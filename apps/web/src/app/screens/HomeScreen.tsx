/**
 * The home route composed by the app layer: the home feature's class cards, with the contact
 * feature's "contact the teachers" action on classes that have teachers. Both modules load in
 * parallel (each stays its own chunk), and features never import each other.
 */
import type { ComponentType } from 'react';
import type { ClassView } from '../../features/home/model';
import { useTenant } from '../../lib/tenant';
import type { PrefetchContext } from '../routes';

/**
 * The home's reads into the query cache before its first render (app/first-screen.ts, decision
 * 0030). Both imports are chunks the home loads anyway.
 */
export async function prefetchHome({ userId, search, client }: PrefetchContext): Promise<unknown> {
  const [{ prefetchHomeReads }, { queryClient }] = await Promise.all([
    import('../../features/home/components/HomePage'),
    client ? { queryClient: client } : import('../QueryProvider'),
  ]);
  return prefetchHomeReads(queryClient, userId, search);
}

export async function loadHomeScreen(): Promise<{ default: ComponentType }> {
  const [{ HomePage }, { ContactTeacherAction }] = await Promise.all([
    import('../../features/home/components/HomePage'),
    import('../../features/contact/components/ContactTeacherAction'),
  ]);

  const contactAction = (view: ClassView) =>
    view.teachers.length > 0 ? <ContactTeacherAction classId={view.id} className={view.name} /> : null;

  function HomeScreen() {
    const settings = useTenant()?.attributes.settings;
    // docs/product.md §6: contacting teachers needs internal login and allowContactTeacher.
    const canContact = Boolean(settings?.login.internal && settings.allowContactTeacher);
    return <HomePage classActions={canContact ? contactAction : undefined} />;
  }
  return { default: HomeScreen };
}
