// placeholder of the 资金总览 page while issue 29 is built; replaced by the page itself
export default function Page() {
  return <div>资金总览</div>;
}
