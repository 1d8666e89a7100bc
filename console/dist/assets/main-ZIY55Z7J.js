var Te,R,mt,$n,re,ct,ft,_t,qe,ke,fe,ht,je,Oe,He,bn,Ee={},xe=[],gn=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,Ce=Array.isArray;function te(e,t){for(var n in t)e[n]=t[n];return e}function Ge(e){e&&e.parentNode&&e.parentNode.removeChild(e)}function Pe(e,t,n){var o,a,r,l={};for(r in t)r=="key"?o=t[r]:r=="ref"?a=t[r]:l[r]=t[r];if(arguments.length>2&&(l.children=arguments.length>3?Te.call(arguments,2):n),typeof e=="function"&&e.defaultProps!=null)for(r in e.defaultProps)l[r]===void 0&&(l[r]=e.defaultProps[r]);return Se(e,l,o,a,null)}function Se(e,t,n,o,a){var r={type:e,props:t,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:a??++mt,__i:-1,__u:0};return a==null&&R.vnode!=null&&R.vnode(r),r}function Ue(e){return e.children}function _e(e,t){this.props=e,this.context=t}function le(e,t){if(t==null)return e.__?le(e.__,e.__i+1):null;for(var n;t<e.__k.length;t++)if((n=e.__k[t])!=null&&n.__e!=null)return n.__e;return typeof e.type=="function"?le(e):null}function yn(e){if(e.__P&&e.__d){var t=e.__v,n=t.__e,o=[],a=[],r=te({},t);r.__v=t.__v+1,R.vnode&&R.vnode(r),Be(e.__P,r,t,e.__n,e.__P.namespaceURI,32&t.__u?[n]:null,o,n??le(t),!!(32&t.__u),a),r.__v=t.__v,r.__.__k[r.__i]=r,vt(o,r,a),t.__e=t.__=null,r.__e!=n&&$t(r)}}function $t(e){if((e=e.__)!=null&&e.__c!=null)return e.__e=e.__c.base=null,e.__k.some(function(t){if(t!=null&&t.__e!=null)return e.__e=e.__c.base=t.__e}),$t(e)}function ut(e){(!e.__d&&(e.__d=!0)&&re.push(e)&&!Re.__r++||ct!=R.debounceRendering)&&((ct=R.debounceRendering)||ft)(Re)}function Re(){try{for(var e,t=1;re.length;)re.length>t&&re.sort(_t),e=re.shift(),t=re.length,yn(e)}finally{re.length=Re.__r=0}}function bt(e,t,n,o,a,r,l,s,u,c,d){var f,i,m,h,$,v,k=o&&o.__k||xe,y=t.length;for(u=vn(n,t,k,u,y),f=0;f<y;f++)(m=n.__k[f])!=null&&(i=m.__i!=-1&&k[m.__i]||Ee,m.__i=f,v=Be(e,m,i,a,r,l,s,u,c,d),h=m.__e,m.ref&&i.ref!=m.ref&&(i.ref&&Ve(i.ref,null,m),d.push(m.ref,m.__c||h,m)),$==null&&h!=null&&($=h),4&m.__u?(u=gt(m,u,e),i.__e&&(i.__e=null)):typeof m.type=="function"&&v!==void 0?u=v:h&&(u=h.nextSibling),m.__u&=-7);return n.__e=$,u}function vn(e,t,n,o,a){var r,l,s,u,c,d=n.length,f=d,i=0;for(e.__k=new Array(a),r=0;r<a;r++)(l=t[r])!=null&&typeof l!="boolean"&&typeof l!="function"?(typeof l=="string"||typeof l=="number"||typeof l=="bigint"||l.constructor==String?l=e.__k[r]=Se(null,l,null,null,null):Ce(l)?l=e.__k[r]=Se(Ue,{children:l},null,null,null):l.constructor===void 0&&l.__b>0?l=e.__k[r]=Se(l.type,l.props,l.key,l.ref?l.ref:null,l.__v):e.__k[r]=l,u=r+i,l.__=e,l.__b=e.__b+1,s=null,(c=l.__i=wn(l,n,u,f))!=-1&&(f--,(s=n[c])&&(s.__u|=2)),s==null||s.__v==null?(c==-1&&(a>d?i--:a<d&&i++),typeof l.type!="function"&&(l.__u|=4)):c!=u&&(c==u-1?i--:c==u+1?i++:(c>u?i--:i++,l.__u|=4))):e.__k[r]=null;if(f)for(r=0;r<d;r++)(s=n[r])!=null&&(2&s.__u)==0&&(s.__e==o&&(o=le(s)),kt(s,s));return o}function gt(e,t,n){var o,a;if(typeof e.type=="function"){for(o=e.__k,a=0;o&&a<o.length;a++)o[a]&&(o[a].__=e,t=gt(o[a],t,n));return t}e.__e!=t&&(t&&e.type&&!t.parentNode&&(t=le(e)),t=n.insertBefore(e.__e,t||null));do t=t&&t.nextSibling;while(t!=null&&t.nodeType==8);return t}function wn(e,t,n,o){var a,r,l,s=e.key,u=e.type,c=t[n],d=c!=null&&(2&c.__u)==0;if(c===null&&s==null||d&&s==c.key&&u==c.type)return n;if(o>(d?1:0)){for(a=n-1,r=n+1;a>=0||r<t.length;)if((c=t[l=a>=0?a--:r++])!=null&&(2&c.__u)==0&&s==c.key&&u==c.type)return l}return-1}function dt(e,t,n){t[0]=="-"?e.setProperty(t,n??""):e[t]=n==null?"":typeof n!="number"||gn.test(t)?n:n+"px"}function we(e,t,n,o,a){var r,l;e:if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof o=="string"&&(e.style.cssText=o=""),o)for(t in o)n&&t in n||dt(e.style,t,"");if(n)for(t in n)o&&n[t]==o[t]||dt(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")r=t!=(t=t.replace(ht,"$1")),l=t.toLowerCase(),t=l in e||t=="onFocusOut"||t=="onFocusIn"?l.slice(2):t.slice(2),e.l||(e.l={}),e.l[t+r]=n,n?o?n[fe]=o[fe]:(n[fe]=je,e.addEventListener(t,r?He:Oe,r)):e.removeEventListener(t,r?He:Oe,r);else{if(a=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{e[t]=n??"";break e}catch{}typeof n=="function"||(n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n))}}function pt(e){return function(t){if(this.l){var n=this.l[t.type+e];if(t[ke]==null)t[ke]=je++;else if(t[ke]<n[fe])return;return n(R.event?R.event(t):t)}}}function Be(e,t,n,o,a,r,l,s,u,c){var d,f,i,m,h,$,v,k,y,F,M,S,G,K,C,z,g=t.type;if(t.constructor!==void 0)return null;128&n.__u&&(u=!!(32&n.__u),r=[s=t.__e=n.__e]),(d=R.__b)&&d(t);e:if(typeof g=="function"){f=l.length;try{if(y=t.props,F=g.prototype&&g.prototype.render,M=(d=g.contextType)&&o[d.__c],S=d?M?M.props.value:d.__:o,n.__c?k=(i=t.__c=n.__c).__=i.__E:(F?t.__c=i=new g(y,S):(t.__c=i=new _e(y,S),i.constructor=g,i.render=Sn),M&&M.sub(i),i.state||(i.state={}),i.__n=o,m=i.__d=!0,i.__h=[],i._sb=[]),F&&i.__s==null&&(i.__s=i.state),F&&g.getDerivedStateFromProps!=null&&(i.__s==i.state&&(i.__s=te({},i.__s)),te(i.__s,g.getDerivedStateFromProps(y,i.__s))),h=i.props,$=i.state,i.__v=t,m)F&&g.getDerivedStateFromProps==null&&i.componentWillMount!=null&&i.componentWillMount(),F&&i.componentDidMount!=null&&i.__h.push(i.componentDidMount);else{if(F&&g.getDerivedStateFromProps==null&&y!==h&&i.componentWillReceiveProps!=null&&i.componentWillReceiveProps(y,S),t.__v==n.__v||!i.__e&&i.shouldComponentUpdate!=null&&i.shouldComponentUpdate(y,i.__s,S)===!1){t.__v!=n.__v&&(i.props=y,i.state=i.__s,i.__d=!1),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(P){P&&(P.__=t)}),xe.push.apply(i.__h,i._sb),i._sb=[],i.__h.length&&l.push(i),s=le(n);break e}i.componentWillUpdate!=null&&i.componentWillUpdate(y,i.__s,S),F&&i.componentDidUpdate!=null&&i.__h.push(function(){i.componentDidUpdate(h,$,v)})}if(i.context=S,i.props=y,i.__P=e,i.__e=!1,G=R.__r,K=0,F)i.state=i.__s,i.__d=!1,G&&G(t),d=i.render(i.props,i.state,i.context),xe.push.apply(i.__h,i._sb),i._sb=[];else do i.__d=!1,G&&G(t),d=i.render(i.props,i.state,i.context),i.state=i.__s;while(i.__d&&++K<25);i.state=i.__s,i.getChildContext!=null&&(o=te(te({},o),i.getChildContext())),F&&!m&&i.getSnapshotBeforeUpdate!=null&&(v=i.getSnapshotBeforeUpdate(h,$)),C=d!=null&&d.type===Ue&&d.key==null?wt(d.props.children):d,s=bt(e,Ce(C)?C:[C],t,n,o,a,r,l,s,u,c),i.base=t.__e,t.__u&=-161,i.__h.length&&l.push(i),k&&(i.__E=i.__=null)}catch(P){if(l.length=f,t.__v=null,u||r!=null){if(P.then){for(t.__u|=u?160:128;s&&s.nodeType==8&&s.nextSibling;)s=s.nextSibling;r!=null&&(r[r.indexOf(s)]=null),t.__e=s}else if(r!=null)for(z=r.length;z--;)Ge(r[z])}else t.__e=n.__e;t.__k==null&&(t.__k=n.__k||[]),P.then||yt(t),R.__e(P,t,n)}}else r==null&&t.__v==n.__v?(t.__k=n.__k,t.__e=n.__e):s=t.__e=kn(n.__e,t,n,o,a,r,l,u,c);return(d=R.diffed)&&d(t),128&t.__u?void 0:s}function yt(e){e&&(e.__c&&(e.__c.__e=!0),e.__k&&e.__k.some(yt))}function vt(e,t,n){for(var o=0;o<n.length;o++)Ve(n[o],n[++o],n[++o]);R.__c&&R.__c(t,e),e.some(function(a){try{e=a.__h,a.__h=[],e.some(function(r){r.call(a)})}catch(r){R.__e(r,a.__v)}})}function wt(e){return typeof e!="object"||e==null||e.__b>0?e:Ce(e)?e.map(wt):e.constructor!==void 0?null:te({},e)}function kn(e,t,n,o,a,r,l,s,u){var c,d,f,i,m,h,$,v=n.props||Ee,k=t.props,y=t.type;if(y=="svg"?a="http://www.w3.org/2000/svg":y=="math"?a="http://www.w3.org/1998/Math/MathML":a||(a="http://www.w3.org/1999/xhtml"),r!=null){for(c=0;c<r.length;c++)if((m=r[c])&&"setAttribute"in m==!!y&&(y?m.localName==y:m.nodeType==3)){e=m,r[c]=null;break}}if(e==null){if(y==null)return document.createTextNode(k);e=document.createElementNS(a,y,k.is&&k),s&&(R.__m&&R.__m(t,r),s=!1),r=null}if(y==null)v===k||s&&e.data==k||(e.data=k);else{if(r=y=="textarea"&&k.defaultValue!=null?null:r&&Te.call(e.childNodes),!s&&r!=null)for(v={},c=0;c<e.attributes.length;c++)v[(m=e.attributes[c]).name]=m.value;for(c in v)m=v[c],c=="dangerouslySetInnerHTML"?f=m:c=="children"||c in k||c=="value"&&"defaultValue"in k||c=="checked"&&"defaultChecked"in k||we(e,c,null,m,a);for(c in k)m=k[c],c=="children"?i=m:c=="dangerouslySetInnerHTML"?d=m:c=="value"?h=m:c=="checked"?$=m:s&&typeof m!="function"||v[c]===m||we(e,c,m,v[c],a);if(d)s||f&&(d.__html==f.__html||d.__html==e.innerHTML)||(e.innerHTML=d.__html),t.__k=[];else if(f&&(e.innerHTML=""),bt(t.type=="template"?e.content:e,Ce(i)?i:[i],t,n,o,y=="foreignObject"?"http://www.w3.org/1999/xhtml":a,r,l,r?r[0]:n.__k&&le(n,0),s,u),r!=null)for(c=r.length;c--;)Ge(r[c]);s&&y!="textarea"||(c="value",y=="progress"&&h==null?e.removeAttribute("value"):h!=null&&(h!==e[c]||y=="progress"&&!h||y=="option"&&h!=v[c])&&we(e,c,h,v[c],a),c="checked",$!=null&&$!=e[c]&&we(e,c,$,v[c],a))}return e}function Ve(e,t,n){try{if(typeof e=="function"){var o=typeof e.__u=="function";o&&e.__u(),o&&t==null||(e.__u=e(t))}else e.current=t}catch(a){R.__e(a,n)}}function kt(e,t,n){var o,a;if(R.unmount&&R.unmount(e),(o=e.ref)&&(o.current&&o.current!=e.__e||Ve(o,null,t)),(o=e.__c)!=null){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(r){R.__e(r,t)}o.base=o.__P=o.__n=null}if(o=e.__k)for(a=0;a<o.length;a++)o[a]&&kt(o[a],t,n||typeof e.type!="function");n||Ge(e.__e),e.__c=e.__=e.__e=void 0}function Sn(e,t,n){return this.constructor(e,n)}function Ke(e,t,n){var o,a,r,l;t==document&&(t=document.documentElement),R.__&&R.__(e,t),a=(o=typeof n=="function")?null:n&&n.__k||t.__k,r=[],l=[],Be(t,e=(!o&&n||t).__k=Pe(Ue,null,[e]),a||Ee,Ee,t.namespaceURI,!o&&n?[n]:a?null:t.firstChild?Te.call(t.childNodes):null,r,!o&&n?n:a?a.__e:t.firstChild,o,l),vt(r,e,l),e.props.children=null}Te=xe.slice,R={__e:function(e,t,n,o){for(var a,r,l;t=t.__;)if((a=t.__c)&&!a.__)try{if((r=a.constructor)&&r.getDerivedStateFromError!=null&&(a.setState(r.getDerivedStateFromError(e)),l=a.__d),a.componentDidCatch!=null&&(a.componentDidCatch(e,o||{}),l=a.__d),l)return a.__E=a}catch(s){e=s}throw e}},mt=0,$n=function(e){return e!=null&&e.constructor===void 0},_e.prototype.setState=function(e,t){var n;n=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=te({},this.state),typeof e=="function"&&(e=e(te({},n),this.props)),e&&te(n,e),e!=null&&this.__v&&(t&&this._sb.push(t),ut(this))},_e.prototype.forceUpdate=function(e){this.__v&&(this.__e=!0,e&&this.__h.push(e),ut(this))},_e.prototype.render=Ue,re=[],ft=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,_t=function(e,t){return e.__v.__b-t.__v.__b},Re.__r=0,qe=Math.random().toString(8),ke="__d"+qe,fe="__a"+qe,ht=/(PointerCapture)$|Capture$/i,je=0,Oe=pt(!1),He=pt(!0),bn=0;var ne={roles:new Set,perms:new Set,users:new Set},Ae=new Set,ze=!1;function Xe(e,t){return typeof t!="string"||t===""||e.has(t)?!1:(e.size>=5e3&&e.delete(e.values().next().value),e.add(t),!0)}function Ye(e){let t=!1;for(let n of Array.isArray(e)?e:[e])!n||typeof n!="object"||(t=Xe(ne.roles,n.role)|t,t=Xe(ne.perms,n.name)|t,t=Xe(ne.users,n.user)|t);t&&!ze&&(ze=!0,queueMicrotask(()=>{ze=!1,Ae.forEach(n=>n())}))}function St(e,t){ne[e].delete(t)&&Ae.forEach(n=>n())}function Et(e){return Ae.add(e),()=>Ae.delete(e)}var Je="rolegate.console.key",xt=location.pathname.replace(/console\/[^/]*$/,""),Ze=()=>sessionStorage.getItem(Je)||"",Rt=e=>sessionStorage.setItem(Je,e),Qe=()=>sessionStorage.removeItem(Je),Tt=!0,B=()=>Tt,Ct=e=>{Tt=e};async function Pt(){try{let e=await fetch(new URL(xt+"api/whoami",location.origin),{headers:{Accept:"application/json"},credentials:"same-origin",cache:"no-store",referrerPolicy:"no-referrer"});if(!e.ok)return null;let t=await e.json();return t&&t.success===!0&&t.data&&t.data.user?t.data:null}catch{return null}}var he=class extends Error{constructor(t,n){super(n),this.status=t}},Ut=()=>{},At=e=>{Ut=e},It=()=>{},Dt=e=>{It=e},b=encodeURIComponent;async function E(e,t,{query:n,body:o,key:a,total:r}={}){if(t.split("/").some(i=>i==="."||i===".."))throw new he(400,'The names "." and ".." cannot be sent in a URL path from a browser (it would reach another route); use rolegatectl or the REST API');let l=new URL(xt+"api/"+t,location.origin);for(let[i,m]of Object.entries(n||{}))m!=null&&m!==""&&l.searchParams.set(i,String(m));let s=a??Ze(),u={Accept:"application/json"};s&&(u.Authorization="Bearer "+s);let c={method:e,headers:u,credentials:s?"omit":"same-origin",cache:"no-store",referrerPolicy:"no-referrer"};o!==void 0&&(u["Content-Type"]="application/json",c.body=JSON.stringify(o));let d;for(let i=0;;i++){try{d=await fetch(l,c)}catch(h){throw new he(0,"The server cannot be reached ("+h.message+")")}if(d.status!==429||i>0)break;let m=Math.min(10,Math.max(0,Number(d.headers.get("Retry-After"))||1));It(m),await new Promise(h=>setTimeout(h,m*1e3))}let f=null;try{f=await d.json()}catch{}if(!d.ok||!f||f.success!==!0){let i=f&&f.message?f.message:d.status+" "+d.statusText;throw f&&f.error&&f.error!==f.message&&(i+=": "+f.error),d.status===429&&(i="The server is busy (429), even after waiting as it asked: "+i),d.status===401&&a===void 0&&Ut(i),new he(d.status,i)}if(r){let i=d.headers.get("X-Total-Count"),m=i===null||i===""?NaN:Number(i);return{data:f.data,total:Number.isSafeInteger(m)&&m>=0?m:null}}return f.data}async function q(e,t){let n=await E("GET",e,{query:t});return Ye(n),n}async function $e(e,t){let{data:n,total:o}=await E("GET",e,{query:t,total:!0});return Ye(n),{items:n,total:o}}var J=(e,t)=>$e(e,{...t,total:"true"}),En=new Intl.Collator(void 0,{numeric:!0,sensitivity:"variant"}),X=(e,t)=>En.compare(e,t)||(e<t?-1:e>t?1:0);var Ft=function(e,t,n,o){var a;t[0]=0;for(var r=1;r<t.length;r++){var l=t[r++],s=t[r]?(t[0]|=l?1:2,n[t[r++]]):t[++r];l===3?o[0]=s:l===4?o[1]=Object.assign(o[1]||{},s):l===5?(o[1]=o[1]||{})[t[++r]]=s:l===6?o[1][t[++r]]+=s+"":l?(a=e.apply(s,Ft(e,s,n,["",null])),o.push(a),s[0]?t[0]|=2:(t[r-2]=0,t[r]=a)):o.push(s)}return o},Nt=new Map;function Mt(e){var t=Nt.get(this);return t||(t=new Map,Nt.set(this,t)),(t=Ft(this,t.get(e)||(t.set(e,t=(function(n){for(var o,a,r=1,l="",s="",u=[0],c=function(i){r===1&&(i||(l=l.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,i,l):r===3&&(i||l)?(u.push(3,i,l),r=2):r===2&&l==="..."&&i?u.push(4,i,0):r===2&&l&&!i?u.push(5,0,!0,l):r>=5&&((l||!i&&r===5)&&(u.push(r,0,l,a),r=6),i&&(u.push(r,i,0,a),r=6)),l=""},d=0;d<n.length;d++){d&&(r===1&&c(),c(d));for(var f=0;f<n[d].length;f++)o=n[d][f],r===1?o==="<"?(c(),u=[u],r=3):l+=o:r===4?l==="--"&&o===">"?(r=1,l=""):l=o+l[0]:s?o===s?s="":l+=o:o==='"'||o==="'"?s=o:o===">"?(c(),r=1):r&&(o==="="?(r=5,a=l,l=""):o==="/"&&(r<5||n[d][f+1]===">")?(c(),r===3&&(u=u[0]),r=u,(u=u[0]).push(2,0,r),r=0):o===" "||o==="	"||o===`
`||o==="\r"?(c(),r=2):l+=o),r===3&&l==="!--"&&(r=4,u=u[0])}return c(),u})(e)),t),arguments,[])).length>1?t:t[0]}var p=Mt.bind(Pe);var be,U,et,Lt,ge=0,Vt=[],D=R,Wt=D.__b,qt=D.__r,Ot=D.diffed,Ht=D.__c,jt=D.unmount,Gt=D.__;function nt(e,t){D.__h&&D.__h(U,e,ge||t),ge=0;var n=U.__H||(U.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function _(e){return ge=1,xn(Yt,e)}function xn(e,t,n){var o=nt(be++,2);if(o.t=e,!o.__c&&(o.__=[n?n(t):Yt(void 0,t),function(s){var u=o.__N?o.__N[0]:o.__[0],c=o.t(u,s);u!==c&&(o.__N=[c,o.__[1]],o.__c.setState({}))}],o.__c=U,!U.__f)){var a=function(s,u,c){if(!o.__c.__H)return!0;var d=!1,f=o.__c.props!==s;if(o.__c.__H.__.some(function(m){if(m.__N){d=!0;var h=m.__[0];m.__=m.__N,m.__N=void 0,h!==m.__[0]&&(f=!0)}}),r){var i=r.call(this,s,u,c);return d?i||f:i}return!d||f};U.__f=!0;var r=U.shouldComponentUpdate,l=U.componentWillUpdate;U.componentWillUpdate=function(s,u,c){if(this.__e){var d=r;r=void 0,a(s,u,c),r=d}l&&l.call(this,s,u,c)},U.shouldComponentUpdate=a}return o.__N||o.__}function O(e,t){var n=nt(be++,3);!D.__s&&Xt(n.__H,t)&&(n.__=e,n.u=t,U.__H.__h.push(n))}function se(e){return ge=5,Kt(function(){return{current:e}},[])}function Kt(e,t){var n=nt(be++,7);return Xt(n.__H,t)&&(n.__=e(),n.__H=t,n.__h=e),n.__}function zt(e,t){return ge=8,Kt(function(){return e},t)}function Rn(){for(var e;e=Vt.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(Ie),t.__h.some(tt),t.__h=[]}catch(n){t.__h=[],D.__e(n,e.__v)}}}D.__b=function(e){U=null,Wt&&Wt(e)},D.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),Gt&&Gt(e,t)},D.__r=function(e){qt&&qt(e),be=0;var t=(U=e.__c).__H;t&&(et===U?(t.__h=[],U.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})):(t.__h.some(Ie),t.__h.some(tt),t.__h=[],be=0)),et=U},D.diffed=function(e){Ot&&Ot(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&(Vt.push(t)!==1&&Lt===D.requestAnimationFrame||((Lt=D.requestAnimationFrame)||Tn)(Rn)),t.__H.__.some(function(n){n.u&&(n.__H=n.u,n.u=void 0)})),et=U=null},D.__c=function(e,t){t.some(function(n){try{n.__h.some(Ie),n.__h=n.__h.filter(function(o){return!o.__||tt(o)})}catch(o){t.some(function(a){a.__h&&(a.__h=[])}),t=[],D.__e(o,n.__v)}}),Ht&&Ht(e,t)},D.unmount=function(e){jt&&jt(e);var t,n=e.__c;n&&n.__H&&(n.__H.__.some(function(o){try{Ie(o)}catch(a){t=a}}),n.__H=void 0,t&&D.__e(t,n.__v))};var Bt=typeof requestAnimationFrame=="function";function Tn(e){var t,n=function(){clearTimeout(o),Bt&&cancelAnimationFrame(t),setTimeout(e)},o=setTimeout(n,35);Bt&&(t=requestAnimationFrame(n))}function Ie(e){var t=U,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),U=t}function tt(e){var t=U;e.__c=e.__(),U=t}function Xt(e,t){return!e||e.length!==t.length||t.some(function(n,o){return n!==e[o]})}function Yt(e,t){return typeof t=="function"?t(e):t}var T=50;function L(e,t,n,o=!0,a=T,r=0){let l=JSON.stringify(n),[s,u]=_({key:l,cursors:[void 0]}),c=s.key===l?s.cursors:[void 0],[d,f]=_(0),i=d+r,m=c[c.length-1],h=JSON.stringify([l,c.length,m??null,o]),[$,v]=_({question:"",tick:-1,items:[],total:null,error:""});O(()=>{if(!o){v({question:h,tick:i,items:[],total:null,error:""});return}let M=!0;return e(m).then(S=>M&&v(Array.isArray(S)||!S?{question:h,tick:i,items:S||[],total:null,error:""}:{question:h,tick:i,items:S.items||[],total:S.total??null,error:""}),S=>M&&v({question:h,tick:i,items:[],total:null,error:S.message})),()=>{M=!1}},[h,i]);let k=$.question===h,y=k?$.items:[],F=!k||$.tick!==i;return{items:y,loading:F,current:k,total:k?$.total:null,error:k?$.error:"",page:c.length,hasNext:k&&y.length>=a,hasPrev:c.length>1,next:()=>y.length&&u({key:l,cursors:[...c,t(y[y.length-1])]}),prev:()=>u({key:l,cursors:c.slice(0,-1)}),reload:()=>f(M=>M+1)}}function Cn({p:e,label:t,total:n,size:o=T}){if(!e.hasPrev&&!e.hasNext)return null;let a=n>0?Math.max(1,Math.ceil(n/o)):0;return p`<nav class="pager" aria-label=${t+" pages"}>
    <button type="button" onClick=${e.prev} disabled=${!e.hasPrev}>Previous page</button>
    <span>Page ${e.page}${a?" of "+a:""}</span>
    <button type="button" onClick=${e.next} disabled=${!e.hasNext}>Next page</button>
  </nav>`}function oe({text:e,id:t}){return e?p`<p class="error" role="alert" id=${t}>${e}</p>`:null}function w({id:e,label:t,value:n,onInput:o,required:a,placeholder:r,type:l,hint:s,list:u,note:c}){let d=[s&&e+"-hint",c&&e+"-new"].filter(Boolean).join(" ");return p`<div class="field">
    <label for=${e}>${t}${a?"":p` <span class="opt">(optional)</span>`}</label>
    <input id=${e} name=${e} type=${l||"text"} value=${n} required=${a} placeholder=${r}
      list=${u} autocomplete="off" spellcheck=${!1} aria-describedby=${d||void 0}
      onInput=${f=>o(f.currentTarget.value)} />
    ${s&&p`<small id=${e+"-hint"}>${s}</small>`}
    ${c&&p`<small class="note" id=${e+"-new"}>${c}</small>`}
  </div>`}var Y="known-roles",Z="known-perms",V="known-users";function st(){let[,e]=_(0);O(()=>Et(()=>e(n=>n+1)),[]);let t=n=>[...n].sort(X).map(o=>p`<option key=${o} value=${o} />`);return p`<datalist id=${Y}>${t(ne.roles)}</datalist>
    <datalist id=${Z}>${t(ne.perms)}</datalist>
    <datalist id=${V}>${t(ne.users)}</datalist>`}function ie(e,t){let n=t.trim();if(!n||ne[e].has(n))return"";let o={perms:"permission",roles:"role",users:"user"}[e];return"\u201C"+n+"\u201D is not a "+o+" name seen so far: check the spelling."}var De={owner:"",text:"",kind:"",at:""},ot=new Set;function ce(e,t,n="ok",o=location.hash){De={owner:e,text:t,kind:n,at:o},ot.forEach(a=>a())}var Zt=()=>ce("","","");function H({owner:e}){let[,t]=_(0);O(()=>{let r=()=>t(l=>l+1);return ot.add(r),()=>ot.delete(r)},[]);let n=De.owner===e&&De.at===location.hash?De:null,o=n?n.text:"",a=n?n.kind:"";return p`<p id=${e+"-status"} class=${"msg "+a} role=${a==="error"?"alert":"status"}
    aria-live=${a==="error"?"assertive":"polite"}>${o}</p>`}function N(e){let[t,n]=_(!1),[o,a]=_(""),r=se(!0);O(()=>()=>{r.current=!1},[]);let l=zt(async s=>{let u=location.hash;n(!0),a("");let c=()=>r.current&&location.hash===u;try{let d=await s();return e&&typeof d=="string"&&c()&&ce(e,d,"ok",u),d}catch(d){if(!c())return;e?ce(e,d.message,"error",u):a(d.message);return}finally{r.current&&n(!1)}},[e]);return{busy:t,error:o,run:l,setError:a}}function A({p:e,label:t,empty:n,render:o,id:a,total:r,counted:l,prefix:s,size:u}){let c=r??e.total,d=c!=null&&!e.error&&e.current;return p`<div class="list" id=${a} aria-busy=${e.loading?"true":"false"}>
    ${e.error&&p`<div class="failed"><p class="error" role="alert">${e.error}</p>
      <button type="button" class="retry" onClick=${e.reload}>Retry</button></div>`}
    ${l&&d&&c>0&&p`<p class="count" id=${a+"-count"}>${j(c)} ${c===1?l[0]:l[1]}${s?" starting with \u201C"+s+"\u201D":""}</p>`}
    ${e.loading&&e.items.length===0&&!e.error&&p`<p class="loading">Loading…</p>`}
    ${!e.loading&&!e.error&&e.items.length===0&&p`<p class="empty">${n}</p>`}
    ${e.items.length>0&&p`<ul aria-label=${t}>${e.items.map(o)}</ul>`}
    <${Cn} p=${e} label=${t} total=${c} size=${u} />
  </div>`}var j=e=>Number(e).toLocaleString("en"),I=(...e)=>"#/"+e.map(encodeURIComponent).join("/");function Jt(e,t=Date.now()){let n=new Date(e),o=r=>String(r).padStart(2,"0"),a=o(n.getHours())+":"+o(n.getMinutes());return Math.abs(n-t)<6*864e5?n.toLocaleDateString("en-GB",{weekday:"short"})+" "+a:n.getFullYear()+"-"+o(n.getMonth()+1)+"-"+o(n.getDate())+" "+a}function rt(e){return[e.starts_at&&"from "+Jt(e.starts_at),e.expires_at&&"until "+Jt(e.expires_at)].filter(Boolean).join(", ")}function ee({x:e}){let t=rt(e);if(!t)return null;let n=[e.starts_at&&"from "+e.starts_at,e.expires_at&&"until "+e.expires_at].filter(Boolean).join(", ");return p`<span class=${e.held===!1?"bounds outside":"bounds"} title=${n}>${t}${e.held===!1?" \xB7 not held now":""}</span>`}function Qt(e){let t=e.scope?"in scope \u201C"+e.scope+"\u201D":"globally",n=e.chain.length>1?", which inherits along "+e.chain.join(" \u2192 "):"",o=e.membership_bounds?" ("+rt(e.membership_bounds)+")":"",a=e.grant_bounds?" ("+rt(e.grant_bounds)+")":"";return"member of "+e.membership+" "+t+o+n+"; granted to "+e.granted_by+a}function Q({id:e,label:t,value:n,onInput:o,list:a}){return p`<div class="search" role="search">
    <${w} id=${e} label=${t} value=${n} onInput=${o} list=${a} type="search"
      hint="Names starting with this text; empty: all." />
  </div>`}function ae(e,t=250){let[n,o]=_(e);return O(()=>{let a=setTimeout(()=>o(e),t);return()=>clearTimeout(a)},[e,t]),n}var Ne="rolegate.console.drafts";function en(){let e={};document.querySelectorAll("main input[id]:not([type=password]):not([type=search])").forEach(t=>{t.value&&(e[t.id]=t.value)}),Object.keys(e).length&&sessionStorage.setItem(Ne,JSON.stringify({at:location.hash,values:e}))}function Pn(e){let t;try{t=JSON.parse(sessionStorage.getItem(Ne)||"null")}catch{t=null}if(!t||t.at!==location.hash||!(e in t.values))return;let n=t.values[e];return delete t.values[e],Object.keys(t.values).length?sessionStorage.setItem(Ne,JSON.stringify(t)):sessionStorage.removeItem(Ne),n}function x(e,t=""){return _(()=>Pn(e)??t)}function W(e){setTimeout(()=>{let t=typeof e=="string"?document.querySelector(e):e;t&&t.isConnected&&t.focus()},0)}function Fe(e,t=0){let n=ae(e.trim(),300),[o,a]=_({name:"",tick:0,unknown:!1});return O(()=>{if(!n)return;let r=!0;return E("GET","users",{query:{prefix:n,limit:1}}).then(l=>r&&a({name:n,tick:t,unknown:!(l.length&&l[0].user===n)}),()=>r&&a({name:n,tick:t,unknown:!1})),()=>{r=!1}},[n,t]),o.name===e.trim()&&o.tick===t&&o.unknown?"\u201C"+o.name+"\u201D holds no membership yet: check the spelling (a new user is fine).":""}function tn(){let[e,t]=_(""),n=ae(e),o=L(m=>$e("roles",{limit:T,after:m,prefix:n}),m=>m.role,[n]),[a,r]=x("new-role"),[l,s]=x("new-role-desc"),[u,c]=_(""),d=se(null);O(()=>{!u&&d.current&&d.current.isConnected&&d.current.focus()},[u]);let f=N("new-role"),i=m=>{m.preventDefault(),f.run(async()=>{let $="Role "+(await E("POST","role/"+b(a),{body:l?{description:l}:void 0})).role+" created.";return r(""),s(""),o.reload(),W("#new-role"),$})};return p`
    ${B()&&p`<section aria-labelledby="new-role-h">
      <h2 id="new-role-h">New role</h2>
      <form class="inline" onSubmit=${i}>
        <${w} id="new-role" label="Role name" value=${a} onInput=${r} required />
        <${w} id="new-role-desc" label="Description" value=${l} onInput=${s} />
        <button type="submit" disabled=${f.busy}>Create role</button>
      </form>
      <${H} owner="new-role" />
    </section>`}
    <section aria-labelledby="roles-h">
      <h2 id="roles-h">Roles</h2>
      <${Q} id="find-role" label="Find roles" value=${e} onInput=${t} list=${Y} />
      <${H} owner="roles" />
      <${A} p=${o} label="Roles" id="roles-list" counted=${["role","roles"]} prefix=${n} empty=${n?"No role starts with \u201C"+n+"\u201D.":"No roles yet."} render=${m=>p`
        <li key=${m.role} class="row">
          <a href=${I("role",m.role)}>${m.role}</a>
          <span class="desc">${m.description}</span>
          ${B()&&p`<button type="button" class="danger" onClick=${h=>{d.current=h.currentTarget,c(m.role)}}
            aria-label=${"Delete role "+m.role}>Delete</button>`}
        </li>`} />
    </section>
    ${u&&p`<${Un} role=${u} onClose=${m=>{c(""),m&&(St("roles",u),ce("roles",m),o.reload(),d.current=null,W("#find-role"))}} />`}`}var Me=100;function Un({role:e,onClose:t}){let n=se(),[o,a]=_(null),[r,l]=_(""),s=N(),u=N();O(()=>{let m=n.current;m.showModal(),W("#cancel-delete");let h=()=>t("");return m.addEventListener("cancel",h),s.run(async()=>{let $="role/"+b(e),v=await q($),k=await q("members/"+b(e),{limit:Me}),y=await q("role_permissions/"+b(e),{limit:Me}),F=await q($+"/inherits",{limit:Me}),M=await q($+"/inherited_by",{limit:Me});a({counts:v.counts,members:k.map(S=>S.user),perms:y.map(S=>S.name),parents:F.map(S=>S.role),children:M.map(S=>S.role)}),v.counts.members+v.counts.scoped_members>0&&W("#confirm-name")}),()=>m.removeEventListener("cancel",h)},[e]);let c=o&&o.counts,d=c&&c.members+c.scoped_members>0,f=()=>s.run(async()=>{let m=await E("DELETE","role/"+b(e));t(m.deleted?"Role "+e+" deleted, with "+ue(c.members+c.scoped_members,"membership")+" and "+ue(c.permissions,"permission")+".":"Role "+e+" was already gone.")}),i=(m,h)=>h===0?"none":m.join(", ")+(h>m.length?" and "+(h-m.length)+" more":"");return p`<dialog ref=${n} aria-labelledby="del-h" aria-describedby="del-what" id="delete-dialog">
    <h2 id="del-h">Delete role “${e}”?</h2>
    <${oe} text=${s.error} />
    ${o?p`<div id="del-what">
      <p>This also removes, for good:</p>
      <ul class="cascade">
        <li><strong>${ue(c.members,"global membership")}</strong>: ${i(o.members,c.members)}</li>
        <li><strong>${ue(c.scoped_members,"membership")} in a scope</strong>${c.scoped_members?p` (<a href=${"#/members//"+encodeURIComponent(e)} onClick=${()=>t("")}>list them</a>)`:""}</li>
        <li><strong>${ue(c.permissions,"permission")}</strong>: ${i(o.perms,c.permissions)}</li>
        <li><strong>${ue(c.parents,"parent link")}</strong> (it inherits from): ${i(o.parents,c.parents)}</li>
        <li><strong>${ue(c.children,"child link")}</strong> (roles inheriting from it lose what it grants): ${i(o.children,c.children)}</li>
      </ul>
      <p>Re-creating the role brings none of this back. The audit log records these counts; the change feed names each membership.</p>
      <p><button type="button" id="export-role" disabled=${u.busy} onClick=${()=>u.run(()=>An(e))}>Export its grants and members (CSV)</button>
        ${u.busy?" Exporting\u2026":""}</p>
      <${oe} text=${u.error} />
      ${d&&p`<${w} id="confirm-name" label=${"Type "+e+" to confirm"} value=${r} onInput=${l} required />`}
    </div>`:p`<p id="del-what" aria-busy="true">Looking up what goes with it…</p>`}
    <div class="actions">
      <button type="button" class="danger" id="confirm-delete" onClick=${f}
        disabled=${!o||s.busy||d&&r!==e}>Delete ${e}</button>
      <button type="button" id="cancel-delete" onClick=${()=>t("")}>Cancel</button>
    </div>
  </dialog>`}async function An(e){let t=[["kind","name","scope"]],n=async(l,s,u,c)=>{let d;for(;;){let f=await q(l,{...s,limit:1e3,after:d});if(f.forEach(i=>t.push(u(i))),f.length<1e3)return;d=c(f[f.length-1])}};await n("role_permissions/"+b(e),{},l=>["grant",l.name,""],l=>l.name),await n("members/"+b(e),{},l=>["member",l.user,""],l=>l.user),await n("scoped_memberships",{role:e},l=>["member",l.user,l.scope],l=>l.scope+"/"+l.user+"/"+l.role);let o=t.map(l=>l.map(s=>/[",\n\r]/.test(s)?'"'+s.replace(/"/g,'""')+'"':s).join(",")).join(`\r
`)+`\r
`,a=URL.createObjectURL(new Blob([o],{type:"text/csv"})),r=document.createElement("a");r.href=a,r.download="role-"+e.replace(/[^A-Za-z0-9._-]/g,"_")+".csv",document.body.append(r),r.click(),r.remove(),setTimeout(()=>URL.revokeObjectURL(a),1e4)}function ue(e,t){return j(e)+" "+t+(e===1?"":"s")}function nn({role:e}){let[t,n]=_(0),[o,a]=_({detail:null,error:""});O(()=>{let d=!0;return q("role/"+b(e)).then(f=>d&&a({detail:f,error:""}),f=>d&&a({detail:null,error:f.status===404?"Role \u201C"+e+"\u201D not found: there is no role of that name (create it on the Roles page).":f.message})),()=>{d=!1}},[e,t]);let r=()=>n(d=>d+1),l=o.detail!==null,s=o.detail?o.detail.counts:null,u={role:e,tick:t,changed:r,ok:l},c=d=>s?" ("+j(d==="members"?s.members+s.scoped_members:s[d])+")":"";return p`
    <p><a href="#/roles">← All roles</a></p>
    <p id="role-desc" class="about">${o.detail?o.detail.description||"No description.":""}</p>
    <${oe} text=${o.error} id="role-error" />
    ${l&&p`<nav class="toc" aria-label="On this page"><ul>
      <li><a href="#grants-h" onClick=${it("grants-h")}>Grants${c("permissions")}</a></li>
      <li><a href="#parents-h" onClick=${it("parents-h")}>Inherits${c("parents")}</a></li>
      <li><a href="#members-h" onClick=${it("members-h")}>Members${c("members")}</a></li>
    </ul></nav>`}
    <fieldset class="plain" disabled=${!l}>
      <legend class="visually-hidden">Role ${e}</legend>
      ${l&&p`<${In} role=${e} current=${o.detail.description||""}
        done=${d=>a({detail:{...o.detail,description:d},error:""})} />`}
      <div class="cols">
        <${Dn} ...${u} total=${s?s.permissions:null} />
        <${Nn} ...${u} total=${s?s.parents:null} />
      </div>
      ${l&&p`<${Fn} ...${u} count=${s.children} />
        <${Mn} ...${u} inherits=${s.parents>0} />`}
      <${Wn} ...${u} total=${s?s.members:null} />
    </fieldset>`}var it=e=>t=>{t.preventDefault();let n=document.getElementById(e);n&&(n.scrollIntoView(),W(n))};function In({role:e,current:t,done:n}){if(!B())return null;let[o,a]=_(!1),[r,l]=_(t),s=N("describe"),u=()=>{a(!1),W("#edit-desc")};return p`<div class="describe">
    ${o?p`<form class="inline" onSubmit=${d=>{d.preventDefault(),s.run(async()=>{let f=await E("PUT","role/"+b(e),{body:{description:r}});return n(f.description),u(),f.description?"Description of "+e+" saved.":"Description of "+e+" cleared."})}}>
        <${w} id="role-desc-edit" label="Description" value=${r} onInput=${l} hint="Empty: no description." />
        <button type="submit" disabled=${s.busy}>Save description</button>
        <button type="button" onClick=${()=>{l(t),u()}}>Cancel</button>
      </form>`:p`<button type="button" id="edit-desc" onClick=${()=>{l(t),a(!0),W("#role-desc-edit")}}>Edit description</button>`}
    <${H} owner="describe" />
  </div>`}function at({id:e,label:t,button:n,add:o,extra:a,owner:r,list:l,note:s}){if(!B())return null;let[u,c]=x(e),d=N(r);return p`<form class="inline" onSubmit=${i=>{i.preventDefault(),d.run(async()=>{let m=await o(u);return c(""),W("#"+e),m})}}>
      <${w} id=${e} label=${t} value=${u} onInput=${c} required list=${l} note=${s?s(u):""} />
      ${a}
      <button type="submit" disabled=${d.busy}>${n}</button>
    </form>`}function lt({label:e,remove:t,owner:n,heading:o}){if(!B())return null;let a=N(n);return p`<button type="button" class="danger" aria-label=${e} disabled=${a.busy}
    onClick=${r=>{let l=r.currentTarget.closest("li"),s=l&&(l.nextElementSibling||l.previousElementSibling);a.run(async()=>{let u=await t();return W(s&&s.querySelector("button.danger")||"#"+o),u})}}>Remove</button>`}function ye(e,t,n,o,a,r,l){let[s,u]=_(""),c=ae(s),d=!!c||r===null,f=L(m=>d?J(e,{...t,limit:T,after:m,prefix:c}):q(e,{...t,limit:T,after:m}),n,[...o,c],a,T,l),i=d?f.total:r;return{p:f,find:s,setFind:u,prefix:c,total:i}}var Le=e=>e.total!==null&&e.total!==void 0?" ("+j(e.total)+(e.prefix?" starting with \u201C"+e.prefix+"\u201D":"")+")":"";function Dn({role:e,tick:t,changed:n,ok:o,total:a}){let r=ye("role_permissions/"+b(e),{},s=>s.name,[e],o,a,t),l=s=>"permission/"+b(e)+"/"+b(s);return p`<section aria-labelledby="grants-h">
    <h2 id="grants-h" tabindex="-1">Permissions granted to ${e}${Le(r)}</h2>
    <${at} id="grant-name" label="Permission" button="Grant" owner="grants" list=${Z} note=${s=>ie("perms",s)} add=${async s=>(await E("POST",l(s)),n(),"Granted "+s+" to "+e+".")} />
    <${H} owner="grants" />
    <${Q} id="find-grant" label="Find grants" value=${r.find} onInput=${r.setFind} list=${Z} />
    ${o&&p`<${A} p=${r.p} total=${r.total} label="Granted permissions" id="grants-list"
      empty=${r.prefix?"No grant starts with \u201C"+r.prefix+"\u201D.":"No permissions granted directly."} render=${s=>p`
      <li key=${s.name} class=${s.held===!1?"row outside":"row"}><a href=${I("whocan",s.name)}>${s.name}</a>
        <${ee} x=${s} />
        <${lt} owner="grants" heading="grants-h" label=${"Remove permission "+s.name} remove=${async()=>(await E("DELETE",l(s.name)),n(),"Removed "+s.name+" from "+e+".")} /></li>`} />`}
  </section>`}function Nn({role:e,tick:t,changed:n,ok:o,total:a}){let r=ye("role/"+b(e)+"/inherits",{},s=>s.role,[e],o,a,t),l=s=>"role/"+b(e)+"/inherits/"+b(s);return p`<section aria-labelledby="parents-h">
    <h2 id="parents-h" tabindex="-1">${e} inherits from${Le(r)}</h2>
    <${at} id="parent-name" label="Parent role" button="Inherit" owner="parents" list=${Y} note=${s=>ie("roles",s)} add=${async s=>(await E("POST",l(s)),n(),e+" now inherits from "+s+".")} />
    <${H} owner="parents" />
    <${Q} id="find-parent" label="Find parents" value=${r.find} onInput=${r.setFind} list=${Y} />
    ${o&&p`<${A} p=${r.p} total=${r.total} label="Parent roles" id="parents-list"
      empty=${r.prefix?"No parent starts with \u201C"+r.prefix+"\u201D.":"Inherits from no role."} render=${s=>p`
      <li key=${s.role} class="row"><a href=${I("role",s.role)}>${s.role}</a>
        <${lt} owner="parents" heading="parents-h" label=${"Remove parent "+s.role+" (stop inheriting from it)"} remove=${async()=>(await E("DELETE",l(s.role)),n(),e+" no longer inherits from "+s.role+".")} /></li>`} />`}
  </section>`}function on({id:e,title:t,children:n,onToggle:o}){return p`<section aria-labelledby=${e+"-h"}>
    <details id=${e} onToggle=${a=>o(a.currentTarget.open)}>
      <summary><h2 id=${e+"-h"}>${t}</h2></summary>
      ${n}
    </details>
  </section>`}function Fn({role:e,tick:t,ok:n,count:o}){let[a,r]=_(!1),l=ye("role/"+b(e)+"/inherited_by",{},s=>s.role,[e],n&&a&&o>0,o,t);return p`<${on} id="children" title=${"Roles inheriting from "+e+" ("+j(o)+")"} onToggle=${r}>
    ${o===0?p`<p class="empty" id="children-list">None.</p>`:p`
      <${Q} id="find-child" label="Find roles inheriting" value=${l.find} onInput=${l.setFind} list=${Y} />
      <${A} p=${l.p} total=${l.total} label="Roles inheriting from it" id="children-list" empty="None." render=${s=>p`
      <li key=${s.role} class="row"><a href=${I("role",s.role)}>${s.role}</a></li>`} />`}
  <//>`}function Mn({role:e,tick:t,ok:n,inherits:o}){let[a,r]=_(!1),l=ye("role_permissions/"+b(e),{effective:"true"},s=>s.name,[e],n&&a,null,t);return p`<${on} id="effective" title=${"Effective permissions of "+e+(a?Le(l):"")} onToggle=${r}>
    <${Q} id="find-effective" label="Find effective permissions" value=${l.find} onInput=${l.setFind} list=${Z} />
    <${A} p=${l.p} total=${l.total} label="Effective permissions" id="effective-list" empty="None, granted or inherited." render=${s=>p`
      <li key=${s.name+"/"+t} class="row wrap"><span class="name">${s.name}</span>
        ${o?p`<${Ln} role=${e} name=${s.name} />`:p`<span class="src">granted directly</span>`}</li>`} />
  <//>`}function Ln({role:e,name:t}){let[n,o]=_(""),a=async()=>{o("\u2026");try{let r=await q("permission/"+b(e)+"/"+b(t),{explain:"true"}),l=r.chain||[];o(r.result?l.length<=1?"granted directly":"inherited from "+l[l.length-1]+" ("+l.join(" \u2192 ")+")":"no longer held")}catch(r){o(r.message)}};return p`<button type="button" aria-label=${"Where from? "+t} onClick=${a}>Where from?</button>
    ${n&&p`<span class="src" role="status">${n}</span>`}`}function Wn({role:e,tick:t,changed:n,ok:o,total:a}){let[r,l]=x("member-scope"),[s,u]=_(""),c=ye("members/"+b(e),{scope:s},i=>i.user,[e,s],o,s?null:a,t),d=i=>"membership/"+b(i)+"/"+b(e),f=i=>i?" of "+e+" in scope "+i:" global member of "+e;return p`<section aria-labelledby="members-h">
    <h2 id="members-h" tabindex="-1">Members of ${e}${Le(c)}</h2>
    <${at} id="member-user" label="User" button="Add member" owner="members" list=${V} note=${i=>Fe(i,t)} add=${async i=>(await E("POST",d(i),{query:{scope:r.trim()}}),n(),i+" is now a"+(r.trim()?" member":"")+f(r.trim())+".")} extra=${p`<${w} id="member-scope" label="Scope" value=${r} onInput=${l}
      hint="Empty: a global membership, which holds in every scope." />`} />
    <${H} owner="members" />
    <div class="inline">
      <p class="hint" id="members-shown">Showing ${s?"members in scope \u201C"+s+"\u201D (global ones included)":"global members"}.</p>
      <button type="button" id="show-scope" onClick=${()=>u(r.trim())}>${r.trim()?"Show members in scope \u201C"+r.trim()+"\u201D":"Show global members"}</button>
    </div>
    <${Q} id="find-member" label="Find members" value=${c.find} onInput=${c.setFind} list=${V} />
    ${o&&p`<${A} p=${c.p} label="Members" id="members-list" total=${c.total}
      empty=${c.prefix?"No member starts with \u201C"+c.prefix+"\u201D.":"No members."} render=${i=>p`
      <li key=${i.user+"/"+(i.scope||"")} class=${i.held===!1?"row outside":"row"}><a href=${I("user",i.user)}>${i.user}</a>
        <span class=${i.scope?"scope":"scope global"}>${i.scope?"in scope "+i.scope:"global"}</span>
        <${ee} x=${i} />
        <${lt} owner="members" heading="members-h" label=${"Remove "+i.user+(i.scope?" from scope "+i.scope:" (global member)")}
          remove=${async()=>{let m=await E("DELETE",d(i.user),{query:{scope:i.scope||void 0}});return n(),m.deleted?i.user+" is no longer a"+(i.scope?" member":"")+f(i.scope)+".":i.user+" was already not a"+(i.scope?" member":"")+f(i.scope)+"."}} /></li>`} />`}
  </section>`}function We({go:e,initial:t}){let[n,o]=_(t||"");return p`<form class="inline" onSubmit=${a=>{a.preventDefault(),n.trim()&&e(I("user",n.trim()))}}>
    <${w} id="lookup-user" label="User" value=${n} onInput=${o} required list=${V} />
    <button type="submit">Show user</button>
  </form>`}function sn({go:e}){let[t,n]=_(""),o=ae(t),a=L(r=>$e("users",{limit:T,after:r,prefix:o}),r=>r.user,[o]);return p`
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">Look up a user</h2>
      <${We} go=${e} />
    </section>
    <section aria-labelledby="users-h">
      <h2 id="users-h">Users holding a membership</h2>
      <${Q} id="find-user" label="Find users" value=${t} onInput=${n} list=${V} />
      <${A} p=${a} label="Users" id="users-list" counted=${["user","users"]} prefix=${o} empty=${o?"No user starts with \u201C"+o+"\u201D.":"No user holds a membership."}
        render=${r=>p`<li key=${r.user} class="row"><a href=${I("user",r.user)}>${r.user}</a></li>`} />
    </section>`}var me=e=>e?"in scope "+e:"globally";async function an(e,t,n){let o=await q("has_permission/"+b(e)+"/"+b(t),{scope:n,explain:"true"});return o.result?e+" can "+t+" "+me(n)+": yes, "+Qt(o.grant)+".":e+" cannot "+t+" "+me(n)+"."}function ln({user:e,go:t}){let[n,o]=_(0),a=()=>o(r=>r+1);return p`
    <${We} go=${t} initial=${e} />
    <div class="cols">
      <${qn} user=${e} />
      <${On} user=${e} />
    </div>
    <${Hn} user=${e} changed=${a} />
    <div class="cols">
      <${jn} user=${e} tick=${n} changed=${a} />
      <${Gn} user=${e} tick=${n} changed=${a} />
    </div>
    <${Bn} user=${e} tick=${n} />
    <${Kn} user=${e} go=${t} />`}function qn({user:e}){let[t,n]=x("check-perm"),[o,a]=x("user-scope"),[r,l]=_(null),s=N("check"),u=d=>{d.preventDefault();let f={perm:t.trim(),scope:o.trim()};l(null),s.run(async()=>{let i=await an(e,f.perm,f.scope);l({...f,text:i,yes:i.includes(": yes")}),W("#check-result")})},c=r&&r.perm===t.trim()&&r.scope===o.trim()?r:null;return p`<section aria-labelledby="check-h">
    <h2 id="check-h">Can ${e} …?</h2>
    <form class="inline" onSubmit=${u}>
      <${w} id="check-perm" label="Permission" value=${t} onInput=${n} required list=${Z}
        note=${ie("perms",t)} />
      <${w} id="user-scope" label="Scope" value=${o} onInput=${a} hint="Empty: globally (global memberships only)." />
      <button type="submit" disabled=${s.busy}>Check</button>
    </form>
    <${H} owner="check" />
    <p id="check-result" tabindex="-1" role="status" aria-busy=${s.busy?"true":"false"}
      class=${c?c.yes?"yes":"no":""}>${s.busy?"Checking\u2026":c?c.text:""}</p>
  </section>`}function On({user:e}){let[t,n]=x("where-perm"),[o,a]=_(""),r=L(u=>o?E("GET","where_can/"+b(e)+"/"+b(o),{query:{limit:T,after:u},total:!0}).then(({data:c,total:d})=>({items:c.scopes.map(f=>({scope:f})),total:d,global:c.global})).then(c=>(rn[e+"/"+o]=c.global,c)):Promise.resolve([]),u=>u.scope,[e,o]),l=o===t.trim(),s=rn[e+"/"+o];return p`<section aria-labelledby="where-h">
    <h2 id="where-h">Where can ${e} …?</h2>
    <form class="inline" onSubmit=${u=>{u.preventDefault(),a(t.trim())}}>
      <${w} id="where-perm" label="Permission" value=${t} onInput=${n} required list=${Z} />
      <button type="submit">Where?</button>
    </form>
    ${o&&l&&p`<div id="where-result">
      ${r.current&&!r.error&&p`<p class="answer">${s?e+" can "+o+" globally, in every scope"+(r.total?"; also granted in these scopes:":"."):r.total?e+" can "+o+" in "+j(r.total)+" scope"+(r.total===1?"":"s")+":":e+" cannot "+o+" anywhere."}</p>`}
      <${A} p=${r} label=${"Scopes where "+e+" can "+o} id="where-list" empty="" size=${T}
        render=${u=>p`<li key=${u.scope} class="row"><span class="scope">${u.scope}</span></li>`} />
    </div>`}
  </section>`}var rn={};function Hn({user:e,changed:t}){if(!B())return null;let[n,o]=x("add-role"),[a,r]=x("add-role-scope"),l=N("user-roles");return p`<section aria-labelledby="addr-h">
    <h2 id="addr-h">Give ${e} a role</h2>
    <form class="inline" onSubmit=${u=>{u.preventDefault();let c=n.trim(),d=a.trim();l.run(async()=>(await E("POST","membership/"+b(e)+"/"+b(c),{query:{scope:d}}),o(""),t(),W("#add-role"),e+" is now a member of "+c+" "+me(d)+"."))}}>
      <${w} id="add-role" label="Role" value=${n} onInput=${o} required list=${Y} note=${ie("roles",n)} />
      <${w} id="add-role-scope" label="Scope" value=${a} onInput=${r} hint="Empty: a global membership, which holds in every scope." />
      <button type="submit" disabled=${l.busy}>Add role</button>
    </form>
    <${H} owner="user-roles" />
  </section>`}function cn(e,t,n,o,a,r){if(!B())return null;let l="Remove "+t+(n?" in scope "+n:" (global)");return p`<button type="button" class="danger" aria-label=${l} disabled=${a.busy} onClick=${s=>{let u=s.currentTarget.closest("li"),c=u&&(u.nextElementSibling||u.previousElementSibling);a.run(async()=>{let d=await E("DELETE","membership/"+b(e)+"/"+b(t),{query:{scope:n||void 0}});o();let f=c&&c.querySelector("button.danger");return W(f||r),d.deleted?e+" is no longer a member of "+t+" "+me(n)+".":e+" was already not a member of "+t+" "+me(n)+"."})}}>Remove</button>`}function jn({user:e,tick:t,changed:n}){let o=L(r=>J("user_roles/"+b(e),{limit:T,after:r}),r=>r.role,[e],!0,T,t),a=N("user-roles");return p`<section aria-labelledby="uroles-h">
    <h2 id="uroles-h" tabindex="-1">Global roles${o.total!==null?" ("+j(o.total)+")":""}</h2>
    <p class="hint">Held in every scope.</p>
    <${A} p=${o} label="Global roles of the user" id="user-roles" empty="Member of no role globally." render=${r=>p`
      <li key=${r.role} class=${r.held===!1?"row outside":"row"}><a href=${I("role",r.role)}>${r.role}</a>
        <${ee} x=${r} />
        ${cn(e,r.role,"",n,a,"#uroles-h")}</li>`} />
  </section>`}function Gn({user:e,tick:t,changed:n}){let o=L(s=>J("scoped_memberships",{user:e,limit:T,after:s}),s=>s.scope+"/"+s.user+"/"+s.role,[e],!0,T,t),a=N("user-roles"),r=new Map;for(let s of o.items)r.has(s.scope)||r.set(s.scope,[]),r.get(s.scope).push(s);let l=[...r.keys()].sort(X);return p`<section aria-labelledby="scoped-roles-h">
    <h2 id="scoped-roles-h" tabindex="-1">Roles in scopes${o.total!==null?" ("+j(o.total)+")":""}</h2>
    <p class="hint">Each holds in its scope only.</p>
    <${A} p=${{...o,items:l}} label="Scoped roles of the user" id="user-scoped" empty="Member of no role in any scope."
      render=${s=>p`<li key=${s} class="group">
        <h3 class="scope-h">Scope ${s}</h3>
        <ul aria-label=${"Roles in scope "+s}>${r.get(s).sort((u,c)=>X(u.role,c.role)).map(u=>p`
          <li key=${u.role} class=${u.held===!1?"row outside":"row"}><a href=${I("role",u.role)}>${u.role}</a>
            <${ee} x=${u} />
            ${cn(e,u.role,s,n,a,"#scoped-roles-h")}</li>`)}</ul></li>`} />
  </section>`}function Bn({user:e,tick:t}){let[n,o]=x("perms-scope"),[a,r]=_(""),[l,s]=_(""),u=ae(l),c=L(d=>J("user_permissions/"+b(e),{limit:T,after:d,scope:a,prefix:u}),d=>d.name,[e,a,u],!0,T,t);return p`<section aria-labelledby="uperms-h">
    <h2 id="uperms-h">Effective permissions ${me(a)}${c.total!==null?" ("+j(c.total)+")":""}</h2>
    <form class="inline" onSubmit=${d=>{d.preventDefault(),r(n.trim())}}>
      <${w} id="perms-scope" label="Scope" value=${n} onInput=${o} hint="Empty: globally." />
      <button type="submit">Show scope</button>
    </form>
    <${Q} id="find-perm" label="Find permissions" value=${l} onInput=${s} list=${Z} />
    <${A} p=${c} label="Effective permissions of the user" id="user-perms" empty=${u?"None starts with \u201C"+u+"\u201D.":"No permissions."}
      render=${d=>p`<${Vn} key=${d.name+"/"+a+"/"+t} user=${e} name=${d.name} scope=${a} />`} />
  </section>`}function Vn({user:e,name:t,scope:n}){let[o,a]=_("");return p`<li class="row wrap"><span class="name">${t}</span>
    <button type="button" aria-label=${"Why? "+t} onClick=${async()=>{a("\u2026");let r;try{r=await an(e,t,n)}catch(l){r=l.message}a(r)}}>Why?</button>
    ${o&&p`<span class="why" role="status">${o}</span>`}</li>`}function Kn({user:e,go:t}){if(!B())return null;let[n,o]=x("rename-to"),[a,r]=_(!1),l=N("rename");return p`<section aria-labelledby="rename-h">
    <h2 id="rename-h">Rename ${e}</h2>
    <form class="inline" onSubmit=${u=>{u.preventDefault();let c=n.trim();l.run(async()=>{let d=await E("POST","user/"+b(e)+"/rename/"+b(c),{query:{merge:a?"true":void 0}}),f=e+" renamed to "+c+": "+d.moved+" membership"+(d.moved===1?"":"s")+" moved.",i=I("user",c);t(i),setTimeout(()=>ce("rename",f,"ok",i),50)})}}>
      <${w} id="rename-to" label="New name" value=${n} onInput=${o} required
        hint="Every membership, global and in every scope, moves to the new name; the audit log records the rename." />
      <div class="check"><input type="checkbox" id="rename-merge" checked=${a} onChange=${u=>r(u.currentTarget.checked)} />
        <label for="rename-merge">Merge into a user who already has memberships</label></div>
      <button type="submit" disabled=${l.busy}>Rename</button>
    </form>
    <${H} owner="rename" />
  </section>`}function un({go:e,scope:t,role:n,user:o}){let a=L(g=>J("scoped_memberships",{limit:T,after:g,scope:t,role:n,user:o}),g=>g.scope+"/"+g.user+"/"+g.role,[t,n,o]),[r,l]=x("f-scope",t),[s,u]=x("f-role",n),[c,d]=x("f-user",o),[f,i]=x("m-user"),[m,h]=x("m-role"),[$,v]=x("m-scope"),k=N("add-membership"),y=N("scoped"),[F,M]=_(0),S=Fe(f,F),G=g=>{g.preventDefault();let P=f.trim(),de=m.trim(),pe=$.trim();k.run(async()=>(await E("POST","membership/"+b(P)+"/"+b(de),{query:{scope:pe}}),i(""),M(hn=>hn+1),a.reload(),W("#m-user"),P+" is now a member of "+de+(pe?" in scope "+pe:" globally")+"."))},K=g=>{g.preventDefault();let P=[r.trim(),s.trim(),c.trim()];for(;P.length&&!P[P.length-1];)P.pop();e(P.length?"#/members/"+P.map(encodeURIComponent).join("/"):"#/members")},C=[t&&"scope "+t,n&&"role "+n,o&&"user "+o].filter(Boolean).join(", "),z=[...a.items].sort((g,P)=>X(g.scope,P.scope)||X(g.user,P.user)||X(g.role,P.role));return p`
    ${B()&&p`<section aria-labelledby="addm-h">
      <h2 id="addm-h">Add a membership</h2>
      <form class="inline" onSubmit=${G}>
        <${w} id="m-user" label="User" value=${f} onInput=${i} required list=${V} note=${S} />
        <${w} id="m-role" label="Role" value=${m} onInput=${h} required list=${Y} note=${ie("roles",m)} />
        <${w} id="m-scope" label="Scope" value=${$} onInput=${v} hint="Empty: global, in every scope." />
        <button type="submit" disabled=${k.busy}>Add membership</button>
      </form>
      <${H} owner="add-membership" />
    </section>`}
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">A user's roles and permissions</h2>
      <${We} go=${e} />
      <p class="hint">Global members are listed on each role's page and each user's.</p>
    </section>
    <section aria-labelledby="scoped-h">
      <h2 id="scoped-h" tabindex="-1">Memberships in one scope${C?": "+C:""}${a.total!==null?" ("+j(a.total)+")":""}</h2>
      <form class="inline filters" onSubmit=${K} aria-label="Filter memberships">
        <${w} id="f-scope" label="Scope" value=${r} onInput=${l} hint="Exactly this scope; empty: every scope." />
        <${w} id="f-role" label="Role" value=${s} onInput=${u} list=${Y} />
        <${w} id="f-user" label="User" value=${c} onInput=${d} list=${V} />
        <button type="submit">Filter</button>
      </form>
      <${H} owner="scoped" />
      <${A} p=${{...a,items:z}} label="Scoped memberships" id="scoped-list" total=${a.total}
        empty=${C?"No scoped membership of "+C+".":"No scoped memberships."} render=${g=>p`
        <li key=${g.scope+"/"+g.user+"/"+g.role} class=${g.held===!1?"row outside":"row"}>
          <span class="scope">${g.scope}</span>
          <span class="grow"><a href=${I("user",g.user)}>${g.user}</a> is a member of <a href=${I("role",g.role)}>${g.role}</a></span>
          <${ee} x=${g} />
          ${B()&&p`<button type="button" class="danger" aria-label=${"Remove "+g.user+" from "+g.role+" in scope "+g.scope}
            onClick=${P=>{let de=P.currentTarget.closest("li"),pe=de&&(de.nextElementSibling||de.previousElementSibling);y.run(async()=>(await E("DELETE","membership/"+b(g.user)+"/"+b(g.role),{query:{scope:g.scope}}),a.reload(),W(pe&&pe.querySelector("button.danger")||"#scoped-h"),g.user+" is no longer a member of "+g.role+" in scope "+g.scope+"."))}}>Remove</button>`}</li>`} />
    </section>`}function pn({name:e,scope:t,go:n}){let[o,a]=_(e||""),[r,l]=_(t||""),s=L(d=>e?J("which_users_can/"+b(e),{limit:T,after:d,scope:t}):Promise.resolve([]),d=>d.user,[e,t]),u=L(d=>e?J("which_roles_can/"+b(e),{limit:T,after:d}):Promise.resolve([]),d=>d.role,[e]),c=d=>d.total!==null?" ("+j(d.total)+")":"";return p`
    <form class="inline" onSubmit=${d=>{d.preventDefault(),o.trim()&&n(r.trim()?I("whocan",o.trim(),r.trim()):I("whocan",o.trim()))}}>
      <${w} id="whocan-perm" label="Permission" value=${o} onInput=${a} required list=${Z} />
      <${w} id="whocan-scope" label="Scope" value=${r} onInput=${l} hint="Empty: global memberships only." />
      <button type="submit">Who can?</button>
    </form>
    ${e&&p`<div class="cols">
      <section aria-labelledby="wu-h">
        <h2 id="wu-h">Users who can ${e}${t?" in scope "+t:""}${c(s)}</h2>
        <${A} p=${s} label="Users" id="whocan-users" counted=${["user","users"]} empty="Nobody." render=${d=>p`
          <li key=${d.user} class="row"><a href=${I("user",d.user)}>${d.user}</a>
            <${ee} x=${{expires_at:d.until}} /></li>`} />
      </section>
      <section aria-labelledby="wr-h">
        <h2 id="wr-h">Roles that hold ${e}${c(u)}</h2>
        <${A} p=${u} label="Roles" id="whocan-roles" counted=${["role","roles"]} empty="No role." render=${d=>p`
          <li key=${d.role} class="row"><a href=${I("role",d.role)}>${d.role}</a></li>`} />
      </section>
    </div>`}`}var zn=["add_role","set_description","del_role","add_permission","del_permission","add_membership","del_membership","add_inheritance","del_inheritance","rename_user","batch"],Xn=e=>e?"removed "+[[e.grants,"grant"],[e.memberships,"global membership"],[e.scoped_memberships,"scoped membership"],[e.parents,"parent link"],[e.children,"child link"]].map(([t,n])=>j(t)+" "+n+(t===1?"":"s")).join(", "):"",dn=(e,t)=>{if(!/^\d{4}-\d{2}-\d{2}$/.test(e))return;let n=new Date(e+"T00:00:00Z");return t&&n.setUTCDate(n.getUTCDate()+1),n.toISOString()};function mn(){let[e,t]=x("audit-action"),[n,o]=x("audit-actor"),[a,r]=x("audit-resource"),[l,s]=x("audit-from"),[u,c]=x("audit-to"),[d,f]=_({}),i=L($=>q("audit",{limit:T,before:$,...d}),$=>$.id,[d]),m=$=>{$.preventDefault();let v=n.trim();f({action:e.trim()||void 0,actor:v&&!/^(user|key):|^(library|anonymous)$/.test(v)?"user:"+v:v||void 0,resource:a.trim()||void 0,since:dn(l),until:dn(u,!0)})},h=Object.entries(d).filter(([,$])=>$).map(([$,v])=>$+" "+v).join(", ");return p`
    <form class="inline filters" onSubmit=${m} aria-label="Filter the audit log">
      <${w} id="audit-action" label="Action" value=${e} onInput=${t} list="audit-actions" hint="Empty: every action." />
      <datalist id="audit-actions">${zn.map($=>p`<option value=${$} />`)}</datalist>
      <${w} id="audit-actor" label="Who" value=${n} onInput=${o} list=${V} hint="A user's name, user:NAME, key:XXXXXXXX or library." />
      <${w} id="audit-resource" label="Resource" value=${a} onInput=${r} hint="role:NAME, membership:USER, permission:ROLE…" />
      <${w} id="audit-from" type="date" label="From (UTC)" value=${l} onInput=${s} />
      <${w} id="audit-to" type="date" label="To (UTC)" value=${u} onInput=${c} />
      <button type="submit">Filter</button>
    </form>
    ${i.error&&p`<div class="failed"><${oe} text=${i.error} /><button type="button" class="retry" onClick=${i.reload}>Retry</button></div>`}
    <div class="table-wrap">
      <table id="audit-table" aria-busy=${i.loading?"true":"false"}>
        <caption>Audit records, newest first${h?", "+h:""}</caption>
        <thead><tr><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Resource</th>
          <th scope="col">Outcome</th><th scope="col">Who</th><th scope="col">Reason</th><th scope="col">Request</th></tr></thead>
        <tbody>${i.items.map($=>p`<tr key=${$.id}>
          <td data-label="When"><time datetime=${$.at}>${$.at.replace("T"," ").replace(/\.\d+Z$/,"")}</time></td>
          <td data-label="Action">${$.action}</td><td data-label="Resource">${$.resource}${$.detail?p`<br /><small class="detail">${Xn($.detail)}</small>`:""}</td>
          <td data-label="Outcome">${$.outcome}</td><td data-label="Who" class="actor">${$.actor}</td>
          <td data-label="Reason">${$.reason}</td><td data-label="Request" class="mono">${$.request_id}</td></tr>`)}</tbody>
      </table>
    </div>
    ${i.loading&&i.items.length===0&&p`<p class="loading">Loading…</p>`}
    ${!i.loading&&!i.error&&i.items.length===0&&p`<p class="empty">No records.</p>`}
    <nav class="pager" aria-label="Audit pages">
      <button type="button" onClick=${i.prev} disabled=${!i.hasPrev}>Newer</button>
      <span>Page ${i.page}</span>
      <button type="button" onClick=${i.next} disabled=${!i.hasNext}>Older</button>
    </nav>`}function fn({me:e}){return p`${[...e.members].sort((t,n)=>X(t.scope,n.scope)).map(t=>p`<${Yn} key=${t.scope} d=${t} />`)}`}var ve=e=>e?"in scope "+e:"globally";function Yn({d:e}){let[t,n]=_(0),[o,a]=_(""),[r,l]=_(e.roles[0]||""),s="d-"+(e.scope||"global").replace(/[^A-Za-z0-9_-]/g,"_"),u=N(s),c=f=>{f.preventDefault(),u.run(async()=>(await E("POST","membership/"+b(o)+"/"+b(r),{query:{scope:e.scope}}),a(""),n(i=>i+1),o+" is now a member of "+r+" "+ve(e.scope)+"."))},d=e.scope?"Scope "+e.scope:"Every scope (global)";return p`<section aria-labelledby=${s+"-h"}>
    <h2 id=${s+"-h"}>${d}</h2>
    ${e.roles.length===0?p`<p>You hold rolegate.members ${ve(e.scope)}, but no role whose every permission you hold there.</p>`:p`
    <form class="inline" onSubmit=${c}>
      <${w} id=${s+"-user"} label="User" value=${o} onInput=${a} required list=${V} />
      <div class="field">
        <label for=${s+"-role"}>Role</label>
        <select id=${s+"-role"} value=${r} onChange=${f=>l(f.currentTarget.value)}>
          ${[...e.roles].sort(X).map(f=>p`<option value=${f}>${f}</option>`)}
        </select>
      </div>
      <button type="submit" disabled=${u.busy}>Add member</button>
    </form>`}
    <${H} owner=${s} />
    ${e.roles.map(f=>p`<${Jn} key=${f+"/"+t} role=${f} scope=${e.scope} owner=${s} />`)}
  </section>`}function Jn({role:e,scope:t,owner:n}){let[o,a]=_(0),r=L(u=>q("members/"+b(e),{scope:t||void 0,limit:T,after:u}),u=>typeof u=="string"?u:u.user,[e,t,o]),l=N(n),s=r.items.filter(u=>(u.scope||"")===t);return p`<div class="delegated-role">
    <h3>${e}</h3>
    <${A} p=${{...r,items:s}} label=${"Members of "+e} id=${"members-"+e}
      empty=${"No member of "+e+" "+ve(t)+"."} render=${u=>p`
      <li key=${u.user} class="row">
        <span class="grow">${u.user}</span>
        <button type="button" class="danger" aria-label=${"Remove "+u.user+" from "+e+" "+ve(t)}
          onClick=${()=>l.run(async()=>(await E("DELETE","membership/"+b(u.user)+"/"+b(e),{query:{scope:t}}),a(c=>c+1),u.user+" is no longer a member of "+e+" "+ve(t)+"."))}>Remove</button>
      </li>`} />
  </div>`}function _n(){let e=location.hash.replace(/^#\/?/,"").split("/").map(t=>{try{return decodeURIComponent(t)}catch{return""}});return{page:e[0]||"roles",arg:e[1]||"",arg2:e[2]||"",arg3:e[3]||""}}var Zn=[["roles","Roles"],["members","Members"],["user","Users"],["whocan","Who can"],["audit","Audit log"]];function Qn({onIn:e,reason:t,me:n}){let[o,a]=_(""),[r,l]=_(t),[s,u]=_(!1),c=async d=>{d.preventDefault(),u(!0),l("");try{await E("GET","roles",{query:{limit:1},key:o.trim()}),Rt(o.trim()),e()}catch(f){l(f.message)}finally{u(!1)}};return p`<main class="signin" id="main">
    <h1>rolegate console</h1>
    ${n&&p`<p id="no-admin">You are signed in as <strong>${n.user}</strong>, who holds none of rolegate.admin, rolegate.read or rolegate.members. An admin key still works:</p>`}
    <form onSubmit=${c}>
      <${w} id="client-key" type="password" label="Client key" value=${o} onInput=${a} required
        hint="An admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS). Each key is a namespace of its own, not a user: only AUTH_CLIENT_KEY's is the one the app's guards read. The key stays in this tab only and is forgotten when the tab closes." />
      <button type="submit" disabled=${s}>Sign in</button>
    </form>
    <${oe} text=${r} id="signin-error" />
  </main>`}function eo({me:e,person:t}){if(!e)return null;let n=e.host?"the app\u2019s namespace":"another namespace ("+e.actor+"), not the app\u2019s";return p`<span class="who" id="signed-in-as">${t?p`Signed in as <strong>${e.user}</strong>${e.admin?"":e.read?" (read only)":""}`:"Signed in with a client key"}<span class="ns" id="namespace"> · in ${n}</span></span>`}function to(){let[e,t]=_(!!Ze()),[n,o]=_(void 0),[a,r]=_(null),[l,s]=_(""),[u,c]=_(_n()),[d,f]=_(!1),[i,m]=_(0),h=se(),$=se(!1);O(()=>{let C=()=>{$.current=!0,c(_n()),f(!1),Zt()};return addEventListener("hashchange",C),At(z=>{en(),Qe(),s(z),t(!1),o(null),r(null)}),Dt(z=>{m(z),setTimeout(()=>m(0),z*1e3)}),()=>removeEventListener("hashchange",C)},[]),O(()=>{e||n!==void 0||Pt().then(C=>{o(C)})},[e,n]),O(()=>{e&&E("GET","whoami").then(C=>r(C),()=>{})},[e]),O(()=>{$.current&&h.current&&h.current.focus()},[u.page,u.arg,u.arg2,u.arg3]);let v=!e&&n,k=e||v&&(n.admin||n.read);if(!e&&n===void 0)return p`<main id="main"><p aria-busy="true">Loading…</p></main>`;if(!e&&(!n||!k&&n.members.length===0))return p`<${Qn} reason=${l} me=${n} onIn=${()=>{s(""),t(!0)}} />`;Ct(e||n.admin);let y=p`<${eo} me=${v?n:a} person=${!!v} />`,F=v?p`<button type="button" class="signout" onClick=${()=>{o(null),s("")}}>Use a client key</button>`:p`<button type="button" class="signout" onClick=${()=>{Qe(),t(!1),o(void 0),r(null)}}>Sign out</button>`,M=i>0&&p`<span class="waiting" role="status">The server is busy: trying again in ${i} s…</span>`;if(!k)return document.title="Your members \xB7 rolegate console",p`
      <header>
        <span class="brand">rolegate</span>
        ${y}
        ${F}
        ${M}
      </header>
      <main id="main">
        <h1 tabindex="-1" ref=${h}>Members you manage</h1>
        <div class="page"><${fn} me=${n} /></div>
      </main>
      <${st} />`;let S=C=>{location.hash=C},G,K;switch(u.page){case"role":G="Role "+u.arg,K=p`<${nn} role=${u.arg} />`;break;case"members":G="Members",K=p`<${un} scope=${u.arg} role=${u.arg2} user=${u.arg3} go=${S} />`;break;case"user":G=u.arg?"User "+u.arg:"Users",K=u.arg?p`<${ln} user=${u.arg} go=${S} />`:p`<${sn} go=${S} />`;break;case"whocan":G=u.arg?"Who can "+u.arg:"Who can",K=p`<${pn} name=${u.arg} scope=${u.arg2} go=${S} />`;break;case"audit":G="Audit log",K=p`<${mn} />`;break;default:G="Roles",K=p`<${tn} />`}return document.title=G+" \xB7 rolegate console",p`
    <a class="skip" href="#main" onClick=${C=>{C.preventDefault(),h.current&&h.current.focus()}}>Skip to content</a>
    <header class=${d?"open":""}>
      <span class="brand">rolegate</span>
      <button type="button" class="menu" aria-expanded=${d?"true":"false"} aria-controls="console-nav"
        onClick=${()=>f(!d)}>Menu</button>
      <nav aria-label="Console" id="console-nav">
        <ul>${Zn.map(([C,z])=>p`<li><a href=${"#/"+C} aria-current=${u.page===C?"page":void 0}>${z}</a></li>`)}</ul>
      </nav>
      ${y}
      ${F}
      ${M}
    </header>
    <main id="main">
      <h1 tabindex="-1" ref=${h}>${G}</h1>
      <div key=${[u.page,u.arg,u.arg2,u.arg3].join("/")} class="page">${K}</div>
    </main>
    <${st} />`}Ke(p`<${to} />`,document.getElementById("app"));
