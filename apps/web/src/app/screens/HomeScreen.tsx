/**
 * The home route composed by the app layer: the home feature's class cards, with the contact
 * feature's "contact the teachers" action on classes that have teachers. Both modules load in
 * parallel (each stays its own chunk), and features never import each other.
 */
import type { ComponentType } from 'react';
import type { ClassView } from '../../features/home/model';
import { useTenant } from '../../lib/tenant';
import type { ReadsContext } from '../route-meta';

/**
 * The home's reads into the query cache before its first render: its route's loader (decisions
 * 0030, 0060). The import is a chunk the home loads anyway.
 */
export async function loadHomeReads({ userId, search, client }: ReadsContext): Promise<unknown> {
  const { loadHomeReads: load } = await import('../../features/home/components/HomePage');
  return load(client, userId, search);
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
