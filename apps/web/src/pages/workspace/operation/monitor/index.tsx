// placeholder of the 实时监控 page while issue 29 is built; replaced by the page itself
export default function Page() {
  return <div>实时监控</div>;
}
