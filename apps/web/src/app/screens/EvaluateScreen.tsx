import { useParams } from 'react-router';
import { EvaluatePage } from '../../features/progression/components/EvaluatePage';

/** docs/product.md §2 /evaluate/{type}/{id}: the program rating form. */
export function EvaluateScreen() {
  const { type = '', id = '' } = useParams();
  return <EvaluatePage key={`${type}:${id}`} type={type} id={id} />;
}
